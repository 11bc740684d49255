import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';
import { codesOf } from './codes.ts';
import { breakPage, CONSENT_CONFIG, VALID_PAGE, withConsentConfig } from './pages.ts';

const CONSENT = /<page-consent id="consent" layout="nodisplay">[\s\S]*<\/page-consent>/;
const consentMarkup = VALID_PAGE.match(CONSENT)?.[0] ?? '';

describe('checkConsent', () => {
  it('refuses a second <page-consent>', () => {
    const page = breakPage(CONSENT, `${consentMarkup}<page-consent id="other" layout="nodisplay"></page-consent>`);
    expect(codesOf(page)).toEqual(['consent-duplicate@error']);
  });

  it('requires an id', () => {
    expect(codesOf(breakPage('<page-consent id="consent"', '<page-consent'))).toContain('consent-id-missing@error');
  });

  it('asks for layout="nodisplay"', () => {
    expect(codesOf(breakPage('id="consent" layout="nodisplay"', 'id="consent"'))).toEqual([
      'validate-consent-layout@warning',
    ]);
  });

  it('requires exactly one JSON script child that parses', () => {
    const config = JSON.stringify(CONSENT_CONFIG);
    expect(codesOf(breakPage(config, `${config}</script><script type="application/json">{}`))).toEqual([
      'consent-config-invalid@error',
    ]);
    expect(codesOf(breakPage(config, '{"consentInstanceId": '))).toEqual(['consent-config-invalid@error']);
  });

  it('reports what parseConsentConfig finds in the base config', () => {
    expect(
      codesOf(withConsentConfig({ ...CONSENT_CONFIG, consentRequired: undefined, geoOverride: undefined })),
    ).toEqual(['consent-required-missing@error']);
  });

  it('parses the config once per geoOverride group and names the group', () => {
    const config = {
      ...CONSENT_CONFIG,
      geoOverride: { ...CONSENT_CONFIG.geoOverride, eea: { onUpdateHref: 'http://example.com/u' } },
    };
    const [finding] = validatePage(withConsentConfig(config));
    expect(finding).toMatchObject({ code: 'consent-url-invalid', severity: 'error' });
    expect(finding?.message).toBe(
      'expected onUpdateHref: an https URL (geoOverride group eea), got "http://example.com/u"',
    );
  });

  it('requires the promptUI id inside the element and the postPromptUI id in the page', () => {
    expect(codesOf(withConsentConfig({ ...CONSENT_CONFIG, promptUI: 'nowhere' }))).toEqual([
      'consent-prompt-missing@error',
    ]);
    const outside = breakPage(
      '<h1>An article</h1>',
      '<div id="outside" hidden></div>',
      withConsentConfig({ ...CONSENT_CONFIG, promptUI: 'outside' }),
    );
    expect(codesOf(outside)).toEqual(['consent-prompt-missing@error']);
    expect(codesOf(withConsentConfig({ ...CONSENT_CONFIG, postPromptUI: 'nowhere' }))).toEqual([
      'consent-post-prompt-missing@error',
    ]);
  });

  it('reports a CMP type as the parser does and then requires the blocking meta tag', () => {
    expect(codesOf(breakPage('id="consent"', 'id="consent" type="some-cmp"'))).toEqual([
      'consent-type-unknown@warning',
    ]);
    const withoutMeta = breakPage(/<meta name="page-consent-blocking"[^>]*>/, '');
    expect(codesOf(breakPage('id="consent"', 'id="consent" type="some-cmp"', withoutMeta))).toEqual([
      'validate-blocking-meta-missing@error',
      'consent-type-unknown@warning',
    ]);
  });

  it('warns about geoOverride without <page-geo>', () => {
    const page = breakPage(
      /<page-geo layout[\s\S]*<\/page-geo>/,
      '',
      breakPage(/<script async custom-element="page-geo"[^>]*><\/script>/, ''),
    );
    expect(codesOf(page)).toEqual(['consent-geo-missing@warning']);
  });
});
