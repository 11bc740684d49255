import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';
import { codesOf } from './codes.ts';
import { breakPage } from './pages.ts';

const AUTO_ADS = '<page-auto-ads type="adsense" data-ad-client="ca-pub-123" data-block-on-consent></page-auto-ads>';
const withAutoAds = (markup: string) => breakPage(AUTO_ADS, markup);

describe('checkAutoAds', () => {
  it('requires a type', () => {
    expect(codesOf(withAutoAds('<page-auto-ads data-ad-client="ca-pub-123"></page-auto-ads>'))).toEqual([
      'auto-ads-type-missing@error',
    ]);
  });

  it('requires a known type and names the supported ones', () => {
    const [finding] = validatePage(withAutoAds('<page-auto-ads type="adnet"></page-auto-ads>'));
    expect(finding).toMatchObject({
      code: 'auto-ads-type-unknown',
      message: 'expected type adsense|doubleclick|custom, got "adnet"',
    });
  });

  it('requires the data-* attributes of the network', () => {
    expect(codesOf(withAutoAds('<page-auto-ads type="doubleclick" data-slot="/1/a"></page-auto-ads>'))).toEqual([
      'auto-ads-attribute-missing@error',
    ]);
    expect(codesOf(withAutoAds('<page-auto-ads type="adsense"></page-auto-ads>'))).toEqual([
      'auto-ads-attribute-missing@error',
    ]);
  });

  it('checks the config URL as the network does', () => {
    expect(
      codesOf(
        withAutoAds('<page-auto-ads type="custom" data-config-url="https://ads.example/config"></page-auto-ads>'),
      ),
    ).toEqual([]);
    expect(
      codesOf(withAutoAds('<page-auto-ads type="custom" data-config-url="http://ads.example/config"></page-auto-ads>')),
    ).toEqual(['auto-ads-config-url-invalid@error']);
  });

  it('warns when it is not the first child of <body>', () => {
    expect(codesOf(withAutoAds(`<p>first</p>${AUTO_ADS}`))).toEqual(['auto-ads-not-first-child@warning']);
  });

  it('warns when it is nested in another element', () => {
    expect(codesOf(withAutoAds(`<div>${AUTO_ADS}</div>`))).toEqual(['validate-auto-ads-nested@warning']);
  });
});
