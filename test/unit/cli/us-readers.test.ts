import { describe, expect, it } from 'vitest';
import { readExpectations } from '../../../cli/audit/page-config.ts';
import { gpcVisitUrl } from '../../../cli/audit/gpc-visit.ts';
import { checkConsent } from '../../../cli/check-consent.ts';
import { readPage } from '../../../cli/page.ts';
import { isGpcVisitDue, isSetUpForUsReaders } from '../../../cli/us-readers.ts';

const BASE = { consentInstanceId: 'news', consentRequired: true, promptUI: 'prompt' };
const US_GEO =
  '<page-geo layout="nodisplay"><script type="application/json">{"ISOCountryGroups": {"ca": ["us-ca"], "eea": ["preset-eea"], "states": ["preset-us-privacy-states"]}}</script></page-geo>';

/** A page with this consent config, the markup after it, and `<page-geo>` when `geo`. */
function pageWith(config: object, after = '', geo = false) {
  const html = `${geo ? US_GEO : ''}<page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify({ ...BASE, ...config })}</script><div id="prompt" hidden></div></page-consent>${after}`;
  return { html, page: readPage(html, 'https://news.example/') };
}

function rulesOf(config: object, after = '', geo = false) {
  const { page } = pageWith(config, after, geo);
  const consent = checkConsent(page).consent!;
  return { validator: isSetUpForUsReaders(page, consent), audit: isGpcVisitDue(page, consent) };
}

describe('us-readers', () => {
  it('takes a gpp object in the base config or in a geoOverride group, for the validator and the audit', () => {
    expect(rulesOf({ gpp: { usnat: { SaleOptOutNotice: 1 } } })).toEqual({ validator: true, audit: true });
    expect(rulesOf({ geoOverride: { eea: { gpp: { approach: 'state' } } } }, '', true)).toEqual({
      validator: true,
      audit: true,
    });
  });

  it('takes a geoOverride group that <page-geo> fills with a US state or a US preset', () => {
    expect(rulesOf({ geoOverride: { ca: { consentRequired: true } } }, '', true)).toEqual({
      validator: true,
      audit: true,
    });
    expect(rulesOf({ geoOverride: { states: { consentRequired: true } } }, '', true).audit).toBe(true);
    expect(rulesOf({ geoOverride: { eea: { consentRequired: true } } }, '', true)).toEqual({
      validator: false,
      audit: false,
    });
  });

  it('lets a consent.optOut control or "gpc": "reject" make the audit due, not the validator', () => {
    const control = '<button on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button>';
    expect(rulesOf({}, control)).toEqual({ validator: false, audit: true });
    expect(rulesOf({ gpc: 'reject' })).toEqual({ validator: false, audit: true });
    expect(rulesOf({ geoOverride: { eea: { gpc: 'reject' } } }, '', true)).toEqual({ validator: false, audit: true });
  });

  it('takes none of it from another value, another element or a page for readers elsewhere', () => {
    expect(rulesOf({ gpc: 'ignore' })).toEqual({ validator: false, audit: false });
    expect(rulesOf({}, '<button on="tap:other.optOut">Opt out</button>')).toEqual({ validator: false, audit: false });
    expect(rulesOf({ exposesGppApi: true })).toEqual({ validator: false, audit: false });
  });
});

describe('readExpectations for the GPC visit', () => {
  it('says whether the visit is due, and false without a consent element', () => {
    expect(readExpectations(pageWith({ gpc: 'reject' }).html, 'https://news.example/').isGpcVisitDue).toBe(true);
    expect(readExpectations(pageWith({}).html, 'https://news.example/').isGpcVisitDue).toBe(false);
    expect(readExpectations('<p>no consent</p>', 'https://news.example/').isGpcVisitDue).toBe(false);
  });

  it("takes the page's first own link to a debug geo hash naming a US place, and nothing else", () => {
    const links = (hrefs: string[]) => hrefs.map((href) => `<a href="${href}">x</a>`).join('');
    const hashOf = (hrefs: string[]) =>
      readExpectations(pageWith({ gpc: 'reject' }, links(hrefs)).html, 'https://news.example/').usGeoHash;
    expect(hashOf(['#page-geo=de', '#page-geo=US-CA', '#page-geo=us-va'])).toBe('page-geo=us-ca');
    expect(hashOf(['#top&page-geo=us'])).toBe('page-geo=us');
    expect(
      hashOf(['#page-geo=de', '#page-geo=usa', 'https://other.example/#page-geo=us-ca', '#page-geo=us-cali']),
    ).toBe(null);
    expect(hashOf([])).toBe(null);
  });
});

describe('gpcVisitUrl', () => {
  it('adds the geo hash, after a hash of the page, unless the page was asked for with one', () => {
    expect(gpcVisitUrl(new URL('https://news.example/a'), 'page-geo=us-ca')).toBe(
      'https://news.example/a#page-geo=us-ca',
    );
    expect(gpcVisitUrl(new URL('https://news.example/a#top'), 'page-geo=us-ca')).toBe(
      'https://news.example/a#top&page-geo=us-ca',
    );
    expect(gpcVisitUrl(new URL('https://news.example/a#page-geo=us-va'), 'page-geo=us-ca')).toBe(
      'https://news.example/a#page-geo=us-va',
    );
    expect(gpcVisitUrl(new URL('https://news.example/a'), null)).toBe('https://news.example/a');
  });
});
