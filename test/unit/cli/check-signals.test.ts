import { describe, expect, it } from 'vitest';
import { codesOf as allCodesOf } from './codes.ts';
import { breakPage, CONSENT_CONFIG, withConsentConfig } from './pages.ts';

const TCF = { exposesTcfApi: true, cmpId: 300, cmpVersion: 1 };
const TCF_SETTINGS = { vendorListHref: 'https://news.example/tcf/vendor-list.json', vendors: [1, 8] };
/** The codes but the prompt's first-layer items (check-tcf-first-layer.test.ts has those). */
const codesOf = (html: string) => allCodesOf(html).filter((code) => !code.startsWith('validate-tcf-first-layer@'));
const STUB = '<script src="https://cdn.example/v0/page-consent-stub-0.1.js"></script>';

describe('checkSignals', () => {
  it('reports exposesTcfApi with no way for a TC string to arrive', () => {
    expect(codesOf(withConsentConfig({ ...CONSENT_CONFIG, ...TCF }))).toContain(
      'consent-tcf-string-source-missing@error',
    );
  });

  it('accepts exposesTcfApi with a tcf object, and reads the object with the component parser', () => {
    expect(codesOf(withConsentConfig({ ...CONSENT_CONFIG, ...TCF, tcf: TCF_SETTINGS }))).toEqual([]);
    expect(
      codesOf(withConsentConfig({ ...CONSENT_CONFIG, ...TCF, tcf: { ...TCF_SETTINGS, vendors: 'all' } })),
    ).toContain('consent-tcf-config-invalid@warning');
  });

  it('reports a publisher restriction the TCF policy does not allow, as the component does', () => {
    const restricted = { ...TCF_SETTINGS, publisherRestrictions: [{ purpose: 1, type: 'requireLi', vendors: [8] }] };
    expect(codesOf(withConsentConfig({ ...CONSENT_CONFIG, ...TCF, tcf: restricted }))).toEqual([
      'consent-tcf-restriction-invalid@warning',
    ]);
  });

  it('reads gpp.usnat and refuses a field the config does not set', () => {
    expect(
      codesOf(withConsentConfig({ ...CONSENT_CONFIG, exposesGppApi: true, gpp: { usnat: { SaleOptOut: 1 } } })),
    ).toEqual(['consent-gpp-config-invalid@warning']);
  });

  it('warns when another script runs in <head> before the stub on a page that exposes TCF', () => {
    const page = withConsentConfig({ ...CONSENT_CONFIG, ...TCF, tcf: TCF_SETTINGS });
    const prebidFirst = breakPage(
      '<title>',
      `<script src="https://ads.example/prebid.js"></script>${STUB}<title>`,
      page,
    );
    expect(codesOf(prebidFirst)).toEqual(['validate-stub-not-first@warning']);
    const stubFirst = breakPage(
      '<meta charset="utf-8">',
      `<meta charset="utf-8">${STUB}<script src="https://ads.example/prebid.js"></script>`,
      page,
    );
    expect(codesOf(stubFirst)).toEqual([]);
  });

  it('says nothing about the stub on a page that exposes neither API', () => {
    expect(
      codesOf(breakPage('<title>', `<script src="https://ads.example/prebid.js"></script>${STUB}<title>`)),
    ).toEqual([]);
  });
});
