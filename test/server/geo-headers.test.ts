/**
 * The reader's country and subdivision from CDN headers (docs/server.md, "Geo headers"): the
 * sources GEO_HEADERS names, in its order, read only from a peer TRUST_PROXY trusts.
 */
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../server/app.ts';
import { parseServerConfig } from '../../server/config.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, geoSource, json } from './app-harness.ts';

const CF = { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' };

/** What the geo script was patched with, and the response. */
async function patched(deps: Partial<AppDeps>, headers: Record<string, string>, remoteAddress = '127.0.0.1') {
  const { app } = await buildApp(deps);
  const response = await app.inject({
    url: '/v0/page-geo-0.1.js',
    remoteAddress,
    headers: { 'accept-encoding': '', ...headers },
  });
  const prefix = geoSource.slice(0, geoSource.indexOf('{{'));
  const body = response.body;
  return { place: body.slice(prefix.length, body.indexOf('"', prefix.length)), response };
}

describe('geo headers: configuration', () => {
  it('reads GEO_HEADERS in its order, any case and spacing', () => {
    expect(
      parseServerConfig({ GEO_HEADERS: 'CloudFront, cloudflare,vercel , appengine', TRUST_PROXY: '1' }).geoHeaders,
    ).toEqual(['cloudfront', 'cloudflare', 'vercel', 'appengine']);
  });

  it('defaults to the custom pair when TRUSTED_COUNTRY_HEADER is set, else to none', () => {
    expect(parseServerConfig({}).geoHeaders).toEqual([]);
    const custom = parseServerConfig({
      TRUSTED_COUNTRY_HEADER: 'X-Country',
      TRUSTED_REGION_HEADER: 'X-Region',
      TRUST_PROXY: 'loopback',
    });
    expect(custom).toMatchObject({
      geoHeaders: ['custom'],
      trustedCountryHeader: 'x-country',
      trustedRegionHeader: 'x-region',
      warnings: [],
    });
  });

  it.each([
    [{ GEO_HEADERS: 'akamai' }, 'an unknown source'],
    [{ GEO_HEADERS: 'cloudflare,cloudflare' }, 'a repeated source'],
    [{ GEO_HEADERS: 'cloudflare,' }, 'an empty entry'],
    [{ GEO_HEADERS: 'custom' }, 'custom without TRUSTED_COUNTRY_HEADER'],
    [{ TRUSTED_REGION_HEADER: 'X-Region' }, 'a region header without a country header'],
    [{ TRUSTED_COUNTRY_HEADER: 'X Country' }, 'a header name with a space'],
  ])('refuses %j (%s) with geo-headers-invalid', (env, _why) => {
    expect(() => parseServerConfig(env)).toThrow(/^geo-headers-invalid: /);
  });

  it('warns when the headers are configured but no proxy is trusted, or the custom pair is left out', () => {
    expect(parseServerConfig({ GEO_HEADERS: 'cloudflare' }).warnings).toEqual([
      'geo-headers-untrusted: GEO_HEADERS: expected TRUST_PROXY naming the proxy that sets them, got none; the headers (cloudflare) are ignored and the IP database is used',
    ]);
    expect(
      parseServerConfig({ GEO_HEADERS: 'vercel', TRUSTED_COUNTRY_HEADER: 'X-Country', TRUST_PROXY: '1' }).warnings,
    ).toEqual([
      'geo-headers-unused: TRUSTED_COUNTRY_HEADER: expected custom in GEO_HEADERS, got none; the custom pair is not read',
    ]);
  });
});

describe('geo headers: the patched place', () => {
  const trusted = { geoHeaders: ['cloudflare'], trustProxy: 'loopback' } as const;

  it.each([
    ['cloudflare', { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' }],
    ['cloudfront', { 'cloudfront-viewer-country': 'US', 'cloudfront-viewer-country-region': 'CA' }],
    ['vercel', { 'x-vercel-ip-country': 'US', 'x-vercel-ip-country-region': 'CA' }],
    ['appengine', { 'x-appengine-country': 'US', 'x-appengine-region': 'ca' }],
  ] as const)(
    'reads the country and region %s sets, publicly cached and varied on its headers',
    async (source, headers) => {
      const { place, response } = await patched({ geoHeaders: [source], trustProxy: 'loopback' }, headers);
      expect(place).toBe('us-ca');
      expect(response.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
      expect(response.headers.vary).toBe(`${Object.keys(headers).join(', ')}, Accept-Encoding`);
    },
  );

  it('reads the named custom pair', async () => {
    const deps = {
      geoHeaders: ['custom'],
      trustedCountryHeader: 'X-Geo-Country',
      trustedRegionHeader: 'X-Geo-Region',
      trustProxy: 'loopback',
    } as const;
    expect((await patched(deps, { 'x-geo-country': 'us', 'x-geo-region': 'US-TX' })).place).toBe('us-tx');
  });

  it('takes the first source holding a country, with that source’s region only', async () => {
    const order = { geoHeaders: ['vercel', 'cloudflare'], trustProxy: 'loopback' } as const;
    const both = { ...CF, 'x-vercel-ip-country': 'US', 'x-vercel-ip-country-region': 'TX' };
    expect((await patched(order, both)).place).toBe('us-tx');
    const reversed = { ...order, geoHeaders: ['cloudflare', 'vercel'] } as const;
    expect((await patched(reversed, both)).place).toBe('us-ca');
    // The first source has no usable country: the next one gives both, never a mix of the two.
    expect(
      (await patched(reversed, { 'cf-ipcountry': 'XX', 'cf-region-code': 'CA', 'x-vercel-ip-country': 'US' })).place,
    ).toBe('us');
    const { response } = await patched(reversed, both);
    expect(response.headers.vary).toBe(
      'cf-ipcountry, cf-region-code, x-vercel-ip-country, x-vercel-ip-country-region, Accept-Encoding',
    );
  });

  it.each([
    [{ 'cf-region-code': 'ZZ' }, 'an unknown US state'],
    [{ 'cf-region-code': 'DE-BY' }, "another country's subdivision"],
    [{ 'cf-region-code': 'California' }, 'a name'],
    [{ 'cf-region-code': '' }, 'an empty region'],
  ])('keeps the country and ignores the region for %j (%s)', async (region, _why) => {
    expect((await patched(trusted, { ...CF, ...region })).place).toBe('us');
  });

  it('falls back to the IP lookup of the forwarded address, privately cached, when the country header is malformed', async () => {
    const { place, response } = await patched(trusted, {
      'cf-ipcountry': 'USA',
      'cf-region-code': 'CA',
      'x-forwarded-for': '203.0.113.7',
    });
    expect(place).toBe('de');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
  });

  it('ignores the headers of a client when no proxy is trusted: the IP lookup decides', async () => {
    const { place, response } = await patched({ geoHeaders: ['cloudflare'] }, CF, '203.0.113.7');
    expect(place).toBe('de');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
  });

  it('ignores the headers of a client reaching the server directly, beside a trusted proxy range', async () => {
    const behind = { geoHeaders: ['cloudflare'], trustProxy: '10.0.0.0/8' } as const;
    expect((await patched(behind, CF, '203.0.113.7')).place).toBe('de');
    expect((await patched(behind, CF, '10.1.2.3')).place).toBe('us-ca');
  });

  it('trusts every peer with a hop count (the nearest proxy)', async () => {
    expect((await patched({ geoHeaders: ['cloudflare'], trustProxy: 1 }, CF, '198.51.100.1')).place).toBe('us-ca');
  });

  it('gives /consent/check the country of the trusted headers only', async () => {
    const { app, store } = await buildApp({ geoHeaders: ['cloudflare'], trustProxy: '10.0.0.0/8' });
    await store.putInstance(
      'site',
      { ...defaultInstanceConfig, consentRequired: { default: false, us: true }, geoGroups: { us: ['us'] } },
      1,
    );
    const check = async (remoteAddress: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/consent/check',
          remoteAddress,
          headers: { ...json, ...CF },
          payload: { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null },
        })
      ).json().consentRequired;
    expect(await check('10.0.0.5')).toBe(true);
    expect(await check('203.0.113.7')).toBe(false);
  });

  it("applies the instance's state groups to /consent/check with the region of the trusted headers", async () => {
    const { app, store } = await buildApp({ geoHeaders: ['cloudflare'], trustProxy: '10.0.0.0/8' });
    const geoGroups = { california: ['preset-us-ca'], us: ['us'] };
    const consentRequired = { default: false, california: true, us: false };
    await store.putInstance('site', { ...defaultInstanceConfig, consentRequired, geoGroups }, 1);
    const check = async (headers: Record<string, string>) =>
      (
        await app.inject({
          method: 'POST',
          url: '/consent/check',
          remoteAddress: '10.0.0.5',
          headers: { ...json, ...headers },
          payload: { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null },
        })
      ).json().consentRequired;
    expect(await check(CF)).toBe(true);
    expect(await check({ 'cf-ipcountry': 'US', 'cf-region-code': 'TX' })).toBe(false);
    // A US reader of unknown state is in every state group (the strictest reading, as <page-geo>'s default).
    expect(await check({ 'cf-ipcountry': 'US' })).toBe(true);
  });
});
