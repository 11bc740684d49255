/*
 * Shared by the example pages. Uses only the public runtime API (docs/runtime.md):
 * - <example-widget data-name="...">: a third-party component. The runtime builds it only when
 *   the consent gate allows ("allowed"), lays it out near the viewport ("loaded") and unlays it
 *   when consent is withdrawn ("removed").
 * - <output data-consent-status>: the page's consent, from the `consent-change` event.
 * - [data-policy-state="default"]: a policy's state from `page.consent.getPolicyState`.
 * - [data-page-user-id]: the pageUserId sent to onUpdateHref (site store `consent-user`).
 * - <button data-forget="<consentInstanceId>">: forgets the cached decision and reloads.
 * - <span data-origin>: this page's origin, so that a command shown on the page names this server.
 * Load it without `async`, before the components, so that it sees every consent-change.
 */
{
  const all = (selector) => document.querySelectorAll(selector);

  // Listening from the start (this script is not async), so no consent-change is missed.
  let lastConsent = null;
  const describe = ({ state, purposeConsents = {}, sharedData }) => {
    const purposes = Object.entries(purposeConsents).map(([name, value]) => `${name} ${value ? 'yes' : 'no'}`);
    return [
      `state: ${state}`,
      `purposes: ${purposes.join(', ') || 'none chosen'}`,
      ...(sharedData ? [`sharedData: ${JSON.stringify(sharedData)}`] : []),
    ].join('\n');
  };
  const showConsent = () => {
    if (!lastConsent) return;
    for (const output of all('[data-consent-status]')) output.textContent = describe(lastConsent);
  };
  document.addEventListener('consent-change', (event) => {
    lastConsent = event.detail;
    showConsent();
  });
  document.addEventListener('DOMContentLoaded', showConsent);
  document.addEventListener('DOMContentLoaded', () => {
    for (const span of all('[data-origin]')) span.textContent = location.origin;
  });

  (self.PAGE = self.PAGE || []).push((page) => {
    page.define(
      'example-widget',
      class extends page.PageElement {
        buildCallback() {
          this.element.dataset.state = 'built';
          this.element.textContent = `${this.element.dataset.name}: allowed, loads near the viewport`;
        }

        layoutCallback() {
          this.element.dataset.state = 'loaded';
          this.element.textContent = `${this.element.dataset.name}: loaded`;
        }

        unlayoutCallback() {
          this.element.dataset.state = 'removed';
          this.element.textContent = `${this.element.dataset.name}: removed (consent withdrawn)`;
        }
      },
    );

    const showPolicies = () => {
      for (const output of all('[data-policy-state]')) {
        page.consent?.getPolicyState(output.dataset.policyState).then((state) => {
          output.textContent = state ?? 'no <page-consent> on this page';
        });
      }
      const userId = page.storage.get('consent-user');
      for (const output of all('[data-page-user-id]')) output.textContent = userId ?? 'none yet (sent with the first update)';
    };
    const start = () => {
      showPolicies();
      page.consent?.onChange(showPolicies);
      for (const button of all('button[data-forget]')) {
        button.addEventListener('click', () => {
          page.storage.remove(`consent:${button.dataset.forget}`);
          location.reload();
        });
      }
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
    else start();
  });
}
