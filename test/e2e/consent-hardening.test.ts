import { describe, expect, it } from 'vitest';
import {
  builtProbes,
  consentPage,
  diagnosticsOf,
  probe,
  requestedProbes,
  useConsentFixture,
} from './consent-fixtures.ts';
import { newPage, settled } from './harness.ts';

const fixture = useConsentFixture();

const PURPOSE_PROBES = [
  probe('ads', 'data-block-on-consent-purposes="ads"'),
  probe('ctor', 'data-block-on-consent-purposes="constructor"'),
  probe('measure', 'data-block-on-consent-purposes="measure"'),
].join('\n');

let count = 0;
async function open(
  config: Record<string, unknown>,
  options: { check?: object; body?: string; head?: string; store?: unknown } = {},
) {
  const n = ++count;
  if (options.check !== undefined) fixture.server.route(`/check-${n}`, { body: options.check });
  const full = {
    consentInstanceId: 'site',
    promptUI: 'prompt',
    ...config,
    ...(options.check === undefined ? {} : { checkConsentHref: `/check-${n}` }),
  };
  const path = `/hardening-${n}.html`;
  fixture.server.page(path, consentPage(full, { body: options.body ?? PURPOSE_PROBES, head: options.head ?? '' }));
  const test = await newPage(fixture.browser);
  if (options.store) {
    await test.page.goto(`${fixture.server.origin}/img.svg`);
    await test.page.evaluate((values) => {
      const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, values }));
      localStorage.setItem(`page-store:${location.hostname}`, btoa(String.fromCharCode(...bytes)));
    }, options.store);
  }
  await test.page.goto(fixture.server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

describe('consent hardening', () => {
  it('keeps a purpose blocked when the server answers it with the string "false"', async () => {
    const check = {
      consentRequired: true,
      consentStateValue: 'accepted',
      purposeConsents: { ads: 'false', measure: true },
    };
    const { page, messages } = await open({ consentRequired: 'remote' }, { check });
    await expect.poll(() => builtProbes(page)).toEqual(['measure']);
    await settled(page);
    expect(await builtProbes(page)).toEqual(['measure']);
    expect(requestedProbes(fixture.server).filter((id) => id === 'ads' || id === 'ctor')).toEqual([]);
    expect(diagnosticsOf(messages, 'consent-answer-field-invalid').map((m) => m.text)[0]).toContain(
      'purposeConsents.ads',
    );
  });

  it('never counts a purpose named constructor as accepted when the user never chose it', async () => {
    const { page } = await open({ consentRequired: true });
    await page.click('#accept');
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state),
      )
      .toBe('accepted');
    await settled(page);
    expect(await builtProbes(page)).toEqual([]);
    expect(requestedProbes(fixture.server).filter((id) => id === 'ctor')).toEqual([]);
  });

  it('keeps a purpose blocked when the stored decision holds a mistyped purpose value', async () => {
    const store = { 'consent:site': { version: 1, state: 'accepted', purposeConsents: { ads: 'yes', measure: true } } };
    const { page, messages } = await open({ consentRequired: true }, { store });
    await expect.poll(() => builtProbes(page)).toEqual(['measure']);
    expect(diagnosticsOf(messages, 'consent-stored-invalid')).toHaveLength(1);
  });

  it('refuses a consent provider registered by a page script, before or after the extension', async () => {
    const register = `<script>
      (self.PAGE = self.PAGE || []).push((page) => {
        const open = { decide: () => 'allow', getPolicyState: async () => 'sufficient', whenChecked: async () => {},
          snapshot: () => ({ state: 'accepted', purposeConsents: {}, isConsentRequired: true }), subscribe: () => () => {} };
        page.setConsentProvider(open);
        page.setConsentProvider({ element: document.querySelector('page-consent') }, open);
        setTimeout(() => page.setConsentProvider({ element: document.querySelector('page-consent') }, open), 500);
      });
    </script>`;
    const { page, messages } = await open(
      { consentRequired: true },
      { body: probe('default', 'data-block-on-consent') + register },
    );
    // The third registration comes from a 500 ms timer: wait for its refusal, then check nothing got through.
    await expect.poll(() => diagnosticsOf(messages, 'consent-provider-refused').length).toBeGreaterThanOrEqual(3);
    await settled(page);
    expect(await builtProbes(page)).toEqual([]);
    expect(requestedProbes(fixture.server).filter((id) => id === 'default')).toEqual([]);
    await page.click('#reject');
    await settled(page);
    expect(await builtProbes(page)).toEqual([]);
  });
});
