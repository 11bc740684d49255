import { describe, expect, it } from 'vitest';
import { codesOf } from './codes.ts';
import { breakPage, CONSENT_CONFIG, VALID_PAGE, withConsentConfig } from './pages.ts';

const CONTROL =
  '<footer><button on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button></footer>';
const withoutControl = (page = VALID_PAGE) => breakPage(CONTROL, '', page);
const NO_US_GROUP = { ...CONSENT_CONFIG, geoOverride: { eea: { consentRequired: true } } };

describe('checkUsOptOut', () => {
  it('warns when a geoOverride group holds a US state and nothing calls consent.optOut', () => {
    expect(codesOf(withoutControl())).toEqual(['validate-us-opt-out-missing@warning']);
  });

  it('warns when a config has a gpp object and nothing calls consent.optOut', () => {
    const page = withoutControl(withConsentConfig({ ...NO_US_GROUP, gpp: { usnat: { SaleOptOutNotice: 1 } } }));
    expect(codesOf(page)).toEqual(['validate-us-opt-out-missing@warning']);
  });

  it('finds nothing on a page for readers outside the US without the control', () => {
    expect(codesOf(withoutControl(withConsentConfig(NO_US_GROUP)))).toEqual([]);
  });

  it('accepts a control with a category, and reports one the action does not know', () => {
    const limit = breakPage('tap:consent.optOut"', 'tap:consent.optOut(category=sensitiveData)"');
    expect(codesOf(limit)).toEqual([]);
    const unknown = breakPage('tap:consent.optOut"', 'tap:consent.optOut(category=all)"');
    expect(codesOf(unknown)).toEqual(['consent-opt-out-category@error']);
  });

  it('counts a call to another element as no control', () => {
    expect(codesOf(breakPage('tap:consent.optOut"', 'tap:other.optOut"'))).toEqual([
      'validate-us-opt-out-missing@warning',
    ]);
  });
});
