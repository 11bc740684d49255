import { describe, expect, it } from 'vitest';
import { getNetwork, type NetworkContext } from '../../../src/wire/auto-ads-networks.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';

const context = (data: NetworkContext['data'], pageUrl = 'https://news.example/a/b?x=1'): NetworkContext => ({
  data,
  canonicalUrl: 'https://foo.bar/baz',
  pageUrl,
});
const network = (type: string) => {
  const found = getNetwork(type);
  if (!found) throw new Error(`no network ${type}`);
  return found;
};

describe('networks', () => {
  it('returns undefined for an unknown type and for inherited names', () => {
    expect(getNetwork('alright')).toBeUndefined();
    expect(getNetwork('toString')).toBeUndefined();
  });

  it('gives every network the defaults of docs/auto-ads.md, "Config format"', () => {
    const vp = (value: number) => ({ value, unit: 'vp' });
    expect(DEFAULT_CONSTRAINTS).toEqual({
      initialMinimumSpacing: vp(1),
      subsequentMinimumSpacing: [
        { adCount: 3, spacing: vp(2) },
        { adCount: 6, spacing: vp(3) },
      ],
      maximumAdCount: 8,
    });
    for (const type of ['adsense', 'doubleclick', 'custom']) {
      expect(network(type).defaultConstraints).toBe(DEFAULT_CONSTRAINTS);
    }
  });

  it.each([
    ['adsense', 1024, 768, 250],
    ['adsense', 487, 800, 300],
    ['adsense', 375, 667, 300],
    ['adsense', 320, 568, 267],
    ['adsense', 320, 200, 200],
    ['adsense', 100, 800, 100],
    ['doubleclick', 375, 667, 250],
    ['custom', 375, 667, 250],
  ])('sizes %s ads on a %ix%i viewport %i px high', (type, width, height, expected) => {
    expect(network(type).sizing({ width, height })).toBe(expected);
  });

  describe('adsense', () => {
    it('requires data-ad-client', () => {
      expect(network('adsense').required).toEqual(['data-ad-client']);
    });

    it('builds the public getconfig/ama URL', () => {
      expect(network('adsense').getConfigUrl(context({ adClient: 'ca-pub-123' }))).toEqual({
        value:
          'https://pagead2.googlesyndication.com/getconfig/ama?client=ca-pub-123&plah=foo.bar&ama_t=amp&url=https%3A%2F%2Ffoo.bar%2Fbaz',
        diagnostics: [],
      });
    });

    it('gives type adsense and data-ad-client', () => {
      expect(network('adsense').getAttributes({ adClient: 'ca-pub-123', other: 'x' })).toEqual({
        type: 'adsense',
        'data-ad-client': 'ca-pub-123',
      });
    });

    it('copies data-ad-host, and data-ad-host-channel only together with it', () => {
      const { getAttributes } = network('adsense');
      expect(getAttributes({ adClient: 'c', adHost: 'h', adHostChannel: 'ch' })).toEqual({
        type: 'adsense',
        'data-ad-client': 'c',
        'data-ad-host': 'h',
        'data-ad-host-channel': 'ch',
      });
      expect(getAttributes({ adClient: 'c', adHostChannel: 'ch' })).toEqual({ type: 'adsense', 'data-ad-client': 'c' });
    });
  });

  describe('doubleclick', () => {
    it('requires data-ad-legacy-client and data-slot', () => {
      expect(network('doubleclick').required).toEqual(['data-ad-legacy-client', 'data-slot']);
    });

    it('builds the config URL from data-ad-legacy-client', () => {
      expect(
        network('doubleclick').getConfigUrl(context({ adLegacyClient: 'ca-pub-9', adClient: 'other' })).value,
      ).toBe(
        'https://pagead2.googlesyndication.com/getconfig/ama?client=ca-pub-9&plah=foo.bar&ama_t=amp&url=https%3A%2F%2Ffoo.bar%2Fbaz',
      );
    });

    it('gives type doubleclick, data-slot and json when given', () => {
      const { getAttributes } = network('doubleclick');
      expect(getAttributes({ slot: '/1/a', json: '{"targeting":{}}' })).toEqual({
        type: 'doubleclick',
        'data-slot': '/1/a',
        json: '{"targeting":{}}',
      });
      expect(getAttributes({ slot: '/1/a' })).toEqual({ type: 'doubleclick', 'data-slot': '/1/a' });
    });
  });

  describe('custom', () => {
    it('requires data-config-url', () => {
      expect(network('custom').required).toEqual(['data-config-url']);
    });

    it('accepts an https URL on another origin and adds client and url', () => {
      const url = network('custom').getConfigUrl(
        context({ configUrl: 'https://ads.example/ads/config', adClient: 'pub-1' }, 'http://localhost:8080/p'),
      );
      expect(url).toEqual({
        value: 'https://ads.example/ads/config?client=pub-1&url=https%3A%2F%2Ffoo.bar%2Fbaz',
        diagnostics: [],
      });
    });

    it('resolves a relative URL against the page and allows same-origin http', () => {
      const url = network('custom').getConfigUrl(
        context({ configUrl: '/ads/config' }, 'http://127.0.0.1:9000/article'),
      );
      expect(url.value).toBe('http://127.0.0.1:9000/ads/config?url=https%3A%2F%2Ffoo.bar%2Fbaz');
    });

    it('keeps a url parameter the publisher wrote', () => {
      const url = network('custom').getConfigUrl(context({ configUrl: 'https://ads.example/c?url=mine' }));
      expect(url.value).toBe('https://ads.example/c?url=mine');
    });

    it.each(['http://ads.example/config', 'javascript:alert(1)', 'http://[bad'])(
      'refuses %s with auto-ads-config-url-invalid',
      (configUrl) => {
        const url = network('custom').getConfigUrl(context({ configUrl }));
        expect(url.value).toBeUndefined();
        expect(url.diagnostics.map((d) => d.code)).toEqual(['auto-ads-config-url-invalid']);
      },
    );

    it.each([
      ['javascript:alert(1)', 'file:///home/me/page.html'],
      ['data:application/json,{}', 'file:///home/me/page.html'],
      ['config.json', 'file:///home/me/page.html'],
    ])('refuses %s on a page with an opaque origin (%s)', (configUrl, pageUrl) => {
      const url = network('custom').getConfigUrl(context({ configUrl }, pageUrl));
      expect(url).toMatchObject({ value: undefined, diagnostics: [{ code: 'auto-ads-config-url-invalid' }] });
    });

    it('gives type custom and passes data-ad-client on', () => {
      const { getAttributes } = network('custom');
      expect(getAttributes({ configUrl: '/c', adClient: 'pub-1' })).toEqual({
        type: 'custom',
        'data-ad-client': 'pub-1',
      });
      expect(getAttributes({ configUrl: '/c' })).toEqual({ type: 'custom' });
    });
  });
});
