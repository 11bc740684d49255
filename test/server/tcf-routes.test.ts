import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app-harness.ts';

const fixture = 'fixtures/tcf/vendor-list.json';

describe('tcf routes', () => {
  it('serves the vendor list named by TCF_VENDOR_LIST, compressed and cacheable by any page', async () => {
    const { app } = await buildApp({ tcfVendorList: fixture });
    const response = await app.inject({
      url: '/tcf/vendor-list.json',
      headers: { 'accept-encoding': 'br', origin: 'https://other.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toEqual(
      JSON.parse(readFileSync(fixture, 'utf8')),
    );
  });

  it('answers 304 to a matching ETag', async () => {
    const { app } = await buildApp({ tcfVendorList: fixture });
    const first = await app.inject({ url: '/tcf/vendor-list.json' });
    const again = await app.inject({
      url: '/tcf/vendor-list.json',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 naming the setting when it is not set', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/tcf/vendor-list.json' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('tcf-vendor-list-missing');
    expect(response.json().error.message).toContain('TCF_VENDOR_LIST is not set');
  });

  it('answers 404 without revealing the path when the file is missing', async () => {
    const { app } = await buildApp({ tcfVendorList: join('/nonexistent', 'vendor-list.json') });
    const response = await app.inject({ url: '/tcf/vendor-list.json' });
    expect(response.json().error).toEqual({
      code: 'tcf-vendor-list-missing',
      message: 'the file named by TCF_VENDOR_LIST is missing: set it to a copy of the IAB Global Vendor List v3',
    });
  });
});
