/** Markup shared by the runtime e2e tests. */

/**
 * A test consent provider: the page defines its own `<page-consent>` implementation (the only
 * element the runtime accepts a provider from) and drives it with `window.testGate.set('allow'|'deny')`.
 */
export const TEST_GATE = `<page-consent id="gate" layout="nodisplay"></page-consent><script>
  (self.PAGE = self.PAGE || []).push((page) => {
    let decision = 'deny';
    const listeners = new Set();
    window.testGate = { set(next) { decision = next; listeners.forEach((l) => l()); } };
    const provider = {
      whenChecked: async () => {},
      decide: () => decision,
      getPolicyState: async () => (decision === 'allow' ? 'sufficient' : 'insufficient'),
      snapshot: () => ({ state: decision === 'allow' ? 'accepted' : 'rejected', consentString: 'CS1', purposeConsents: {}, isConsentRequired: true }),
      subscribe: (l) => (listeners.add(l), () => listeners.delete(l)),
    };
    page.define('page-consent', class extends page.PageElement {
      isBlockable() { return false; }
      buildCallback() { page.setConsentProvider(this, provider); }
    });
  });
</script>`;
