import { describe, expect, it } from 'vitest';
import { codesOf } from './codes.ts';
import { breakPage, VALID_PAGE } from './pages.ts';

const withoutConsent = breakPage(
  /<page-consent id="consent"[\s\S]*<\/page-consent>/,
  '',
  breakPage(/<script async custom-element="page-consent"[^>]*><\/script>/, ''),
);

describe('checkBlocking', () => {
  it('refuses a policy other than the predefined ones, through the runtime reader', () => {
    expect(codesOf(breakPage('data-block-on-consent="_till_accepted"', 'data-block-on-consent="_till_later"'))).toEqual(
      ['invalid-block-policy@error'],
    );
  });

  it('warns about a purpose the consent config does not list', () => {
    expect(
      codesOf(breakPage('data-block-on-consent-purposes="ads"', 'data-block-on-consent-purposes="ads, social"')),
    ).toEqual(['validate-purpose-unknown@warning']);
  });

  it('refuses a purpose outside the purpose id rule', () => {
    expect(
      codesOf(breakPage('data-block-on-consent-purposes="ads"', 'data-block-on-consent-purposes="ads, social media"')),
    ).toEqual(['validate-purpose-id-invalid@error']);
  });

  it('refuses a required purpose outside the purpose id rule', () => {
    const page = breakPage(
      '"california":{"consentRequired":false}',
      '"california":{"consentRequired":false,"purposeConsentRequired":["ads","social media"]}',
    );
    expect(codesOf(page)).toEqual(['validate-purpose-id-invalid@error']);
  });

  it('accepts purposes listed only in a geoOverride group', () => {
    const page = breakPage(
      '"california":{"consentRequired":false}',
      '"california":{"consentRequired":false,"purposeConsentRequired":["social"]}',
    );
    expect(
      codesOf(breakPage('data-block-on-consent-purposes="ads"', 'data-block-on-consent-purposes="social"', page)),
    ).toEqual([]);
  });

  it('warns about a meta tag listing an element that cannot be blocked', () => {
    expect(codesOf(breakPage('content="page-img,page-ad"', 'content="page-img,page-consent,img"'))).toEqual([
      'validate-meta-tag-unknown@warning',
      'validate-meta-tag-unknown@warning',
    ]);
  });

  it('warns about blocking markers on a page without <page-consent>', () => {
    const codes = codesOf(withoutConsent);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['validate-blocking-without-consent@warning']));
  });

  it('finds nothing to block without markers or meta tag', () => {
    const page = withoutConsent
      .replace(/ data-block-on-consent(-purposes)?(="[^"]*")?/g, '')
      .replace(/<meta name="page-consent-blocking"[^>]*>/, '');
    expect(page).not.toBe(VALID_PAGE);
    expect(codesOf(page)).toEqual([]);
  });
});
