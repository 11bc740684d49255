// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mergeAttributes, readConsentMarkers } from '../../../src/auto-ads/attributes.ts';

describe('attributes', () => {
  it('merges layers so that later layers win and earlier-only names survive', () => {
    const merged = mergeAttributes(
      { layout: 'fixed-height', height: '0' },
      { type: 'adsense', 'data-ad-client': 'ca-pub-1' },
      { type: 'fake', 'data-a': 'config' },
      { 'data-a': 'placement', height: '300' },
    );
    expect(merged).toEqual({
      layout: 'fixed-height',
      height: '300',
      type: 'fake',
      'data-ad-client': 'ca-pub-1',
      'data-a': 'placement',
    });
  });

  it('reads the consent markers of the auto-ads element', () => {
    const element = document.createElement('page-auto-ads');
    element.setAttribute('data-block-on-consent', '');
    element.setAttribute('data-block-on-consent-purposes', 'ads');
    element.setAttribute('data-ad-client', 'x');
    expect(readConsentMarkers(element)).toEqual({
      'data-block-on-consent': '',
      'data-block-on-consent-purposes': 'ads',
    });
  });

  it('reads no markers from an unblocked element', () => {
    expect(readConsentMarkers(document.createElement('page-auto-ads'))).toEqual({});
  });
});
