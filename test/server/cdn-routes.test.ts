import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, etagMatches } from '../../server/cdn-assets.ts';
import { cdnCacheControl, partCacheControl } from '../../server/routes/cdn.ts';
import { buildApp, geoSource, runtimeSource, writeFiles } from './app-harness.ts';

describe('cdn routes', () => {
  it('serves v0.js with brotli when accepted', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/v0.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(runtimeSource);
    expect(response.rawPayload.length).toBeLessThan(runtimeSource.length);
  });

  it('serves gzip when brotli is not accepted and identity when nothing is', async () => {
    const { app } = await buildApp();
    const gzipped = await app.inject({ url: '/v0.js', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(runtimeSource);
    const plain = await app.inject({ url: '/v0.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(runtimeSource);
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const { app } = await buildApp();
    const first = await app.inject({ url: '/v0/page-consent-0.1.js', headers: { 'accept-encoding': 'br' } });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    const again = await app.inject({
      url: '/v0/page-consent-0.1.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const otherEncoding = await app.inject({
      url: '/v0/page-consent-0.1.js',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    expect(otherEncoding.statusCode).toBe(200);
  });

  it('serves source maps as JSON', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/v0.js.map', headers: { 'accept-encoding': '' } });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual({ version: 3 });
  });

  it('serves a rebuilt file after it changes on disk', async () => {
    const { app, dir } = await buildApp();
    await app.inject({ url: '/v0/page-consent-0.1.js' });
    const file = join(dir, 'cdn/v0/page-consent-0.1.js');
    writeFileSync(file, 'console.log("rebuilt consent");');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const response = await app.inject({ url: '/v0/page-consent-0.1.js', headers: { 'accept-encoding': '' } });
    expect(response.body).toBe('console.log("rebuilt consent");');
  });

  it('patches the geo script with the country of the requester IP, privately cached', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      url: '/v0/page-geo-0.1.js',
      remoteAddress: '203.0.113.7',
      headers: { 'accept-encoding': '' },
    });
    expect(response.body).toBe(geoSource.replace('{{PAGE_GEO_COUNTRY}}', 'de'));
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    const us = await app.inject({
      url: '/v0/page-geo-0.1.js',
      remoteAddress: '198.51.100.9',
      headers: { 'accept-encoding': '' },
    });
    expect(us.body).toContain('"us"');
    expect(us.headers.etag).not.toBe(response.headers.etag);
  });

  it('patches unknown for loopback and unlisted addresses', async () => {
    const { app } = await buildApp();
    for (const remoteAddress of ['127.0.0.1', '::1', '192.0.2.1']) {
      const response = await app.inject({
        url: '/v0/page-geo-0.1.js',
        remoteAddress,
        headers: { 'accept-encoding': 'br' },
      });
      expect(brotliDecompressSync(response.rawPayload).toString(), remoteAddress).toContain('"unknown"');
    }
  });

  it('patches the trusted header country and varies on that header', async () => {
    const { app } = await buildApp({ trustedCountryHeader: 'CF-IPCountry', trustProxy: 'loopback' });
    const response = await app.inject({
      url: '/v0/page-geo-0.1.js',
      headers: { 'cf-ipcountry': 'GB', 'accept-encoding': '' },
    });
    expect(response.body).toContain('"gb"');
    expect(response.headers['cache-control']).toBe('public, max-age=300, stale-while-revalidate=3600');
    expect(response.headers.vary).toBe('cf-ipcountry, Accept-Encoding');
    const placeholder = await app.inject({
      url: '/v0/page-geo-0.1.js',
      headers: { 'cf-ipcountry': 'XX', 'accept-encoding': '' },
    });
    expect(placeholder.body).toContain('"unknown"');
    expect(placeholder.headers['cache-control']).toBe('private, max-age=300');
    const absent = await app.inject({
      url: '/v0/page-geo-0.1.js',
      remoteAddress: '203.0.113.7',
      headers: { 'accept-encoding': '' },
    });
    expect(absent.body).toContain('"de"');
    expect(absent.headers['cache-control']).toBe('private, max-age=300');
    expect(absent.headers.vary).toBe('cf-ipcountry, Accept-Encoding');
  });

  it('answers 404 not-found for a file outside the tree', async () => {
    const { app } = await buildApp();
    for (const url of ['/v0/missing-0.1.js', '/v0/..%2Fsecret.js', '/v0/page.css']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe('not-found');
    }
  });

  it('answers 404 cdn-not-built when the CDN tree is missing, without revealing its path', async () => {
    const { app, dir } = await buildApp();
    rmSync(join(dir, 'cdn'), { recursive: true });
    const response = await app.inject({ url: '/v0.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({
      code: 'cdn-not-built',
      message: 'the CDN tree is not built (v0.js is missing): run npm run build, then reload',
    });
    expect(response.body).not.toContain(dir);
  });

  it('answers HEAD with headers only', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'HEAD', url: '/v0.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(response.headers.etag).toBeDefined();
  });
});

describe('cdn routes: caching of parts and of the files pages name (docs/decisions/part-names.md)', () => {
  const PART = 'v0/page-runtime-actions.k3x9a.js';

  it('caches a part, named after its content, for a year as immutable; the files pages name keep their short caching', async () => {
    const { app, dir } = await buildApp();
    writeFiles(join(dir, 'cdn'), {
      [PART]: 'console.log("actions");',
      [`${PART}.map`]: '{"version":3}',
      'v0/page-consent-fast-0.1.js': 'console.log("fast");',
    });
    const part = await app.inject({ url: `/${PART}`, headers: { 'accept-encoding': 'br' } });
    expect(part.statusCode).toBe(200);
    expect(part.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/v0.js', '/v0/page-consent-0.1.js', '/v0/page-consent-fast-0.1.js', `/${PART}.map`]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('public, max-age=300, stale-while-revalidate=3600');
    }
  });

  it('answers 404 for a part name that is not in the tree (an earlier name, or the fixed name a part had before)', async () => {
    const { app } = await buildApp();
    for (const url of [`/${PART}`, '/v0/page-runtime-actions-0.1.js']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['cache-control'], url).toBeUndefined();
    }
  });

  it('names the source map of each script in a SourceMap header, the files naming none', async () => {
    const { app, dir } = await buildApp();
    writeFiles(join(dir, 'cdn'), { [PART]: 'console.log("actions");' });
    expect((await app.inject({ url: '/v0.js' })).headers.sourcemap).toBe('v0.js.map');
    expect((await app.inject({ url: `/${PART}` })).headers.sourcemap).toBe('page-runtime-actions.k3x9a.js.map');
    expect((await app.inject({ url: '/v0.js.map' })).headers.sourcemap).toBeUndefined();
  });

  it('caches every part of the built tree as immutable, and none of the files pages name', async () => {
    const root = 'dist/cdn';
    const { files, earlier } = JSON.parse(readFileSync(join(root, 'part-names.json'), 'utf8')) as {
      files: Record<string, string>;
      earlier: string[];
    };
    const parts = [...Object.values(files), ...earlier.filter((file) => file.endsWith('.js'))];
    expect(Object.keys(files).length).toBeGreaterThan(10);
    const named = [
      'v0.js',
      ...readdirSync(join(root, 'v0'))
        .filter((name) => /-0\.1\.js$/.test(name) && name !== 'page-geo-0.1.js')
        .map((name) => `v0/${name}`),
    ];
    expect(named).toEqual(
      expect.arrayContaining([
        'v0/page-consent-0.1.js',
        'v0/page-consent-stub-0.1.js',
        'v0/page-consent-fast-0.1.js',
        'v0/page-auto-ads-0.1.js',
      ]),
    );
    const { app } = await buildApp({ cdnRoot: root });
    const cacheControl = async (file: string) =>
      (await app.inject({ method: 'HEAD', url: `/${file}` })).headers['cache-control'];
    for (const file of parts) expect(await cacheControl(file), file).toBe(partCacheControl);
    for (const file of named) expect(await cacheControl(file), file).toBe(cdnCacheControl);
  });
});

describe('cdn-assets', () => {
  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['', 'identity'],
    [undefined, 'identity'],
    ['*;q=0, identity', 'identity'],
  ])('chooses %s -> %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it('compares entity tags weakly and honours *', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"c"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});
