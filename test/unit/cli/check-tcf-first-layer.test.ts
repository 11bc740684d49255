import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';
import { breakPage, CONSENT_CONFIG, VALID_PAGE, withConsentConfig } from './pages.ts';

const tcf = { vendorListHref: '/tcf/vendor-list.json', vendors: [1, 2], specialFeatures: [1] };
/** The documented markup pattern of a page's own TCF prompt (docs/consent.md, "Your own TCF prompt"). */
const FIRST_LAYER = `<div id="prompt" hidden>
      <h2>Your privacy choices</h2>
      <p>We and our partners store and read information on your device for the purposes below.</p>
      <p><a data-tcf="partners" href="/partners">View our partners (12)</a></p>
      <h3>Purposes</h3><ul><li>Store and/or access information on a device</li></ul>
      <h3 data-tcf="special-features">Special features</h3><ul><li>Use precise geolocation data</li></ul>
      <p data-tcf="legitimate-interest">Some partners rely on legitimate interest. <a href="/partners#objection">Object</a></p>
      <p data-tcf="scope">Your choices apply to this site only.</p>
      <p data-tcf="change-later">Change them at any time with "Privacy settings" at the bottom of each page.</p>`;
const tcfPage = (prompt = FIRST_LAYER, config: object = { ...CONSENT_CONFIG, tcf }) =>
  breakPage('<div id="prompt" hidden>', prompt, withConsentConfig(config));
const findingsOf = (html: string) =>
  validatePage(html)
    .filter((finding) => finding.code === 'validate-tcf-first-layer')
    .map(({ severity, message }) => `${severity}: ${message}`);

describe('checkTcfFirstLayer', () => {
  it('finds nothing in a prompt with every item of the documented pattern', () => {
    expect(findingsOf(tcfPage())).toEqual([]);
  });

  it('checks only an inline prompt of a config with tcf', () => {
    expect(findingsOf(VALID_PAGE)).toEqual([]);
  });

  it('warns once for each item missing, naming the item and its markup', () => {
    expect(findingsOf(withConsentConfig({ ...CONSENT_CONFIG, tcf }))).toEqual([
      'warning: expected the partner count as a control to the vendor list: data-tcf="partners" on a <button>, <a href> or <summary> whose text has the number, got "none"',
      'warning: expected that partners rely on legitimate interest and the reader may object: data-tcf="legitimate-interest" holding a <button> or <a href> to the place to object, got "none"',
      'warning: expected the scope of the choices (this site, or the group of sites): data-tcf="scope" with text, got "none"',
      'warning: expected how to change choices later: data-tcf="change-later" with text, naming a control with on="tap:consent.prompt", got "none"',
      'warning: expected a heading for the special features: data-tcf="special-features" on an <h2>-<h6>, got "none"',
    ]);
  });

  it('warns about a partner count that is plain text, a heading that is not one, an objection without a control', () => {
    const page = tcfPage(
      FIRST_LAYER.replace(
        '<a data-tcf="partners" href="/partners">View our partners (12)</a>',
        '<span data-tcf="partners">12 partners</span>',
      )
        .replace('<h3 data-tcf="special-features">', '<p data-tcf="special-features">')
        .replace(' <a href="/partners#objection">Object</a>', ''),
    );
    expect(findingsOf(page).map((line) => line.replace(/^warning: expected (.{20}).*(, got .*)$/, '$1$2'))).toEqual([
      'the partner count as, got "<span> without it"',
      'a heading for the sp, got "<p> without it"',
      'that partners rely o, got "<p> without it"',
    ]);
  });

  it('asks for the special features heading only when the config lists special features', () => {
    const page = tcfPage(FIRST_LAYER.replace(' data-tcf="special-features"', ''), {
      ...CONSENT_CONFIG,
      tcf: { ...tcf, specialFeatures: [] },
    });
    expect(findingsOf(page)).toEqual([]);
  });

  it('asks for a control that re-opens the prompt, which the change-later text names', () => {
    const page = breakPage('<button on="tap:consent.prompt">Privacy settings</button>', '', tcfPage());
    expect(findingsOf(page)).toEqual([
      'warning: expected how to change choices later: data-tcf="change-later" with text, naming a control with on="tap:consent.prompt", got "<p> without it"',
    ]);
  });
});
