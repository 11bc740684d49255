/**
 * The reference server as a CDN behind Cloudflare would run it (docs/server.md, "Geo headers"):
 * `GEO_HEADERS=cloudflare`, `TRUST_PROXY=loopback`, serving the built tree, so that its
 * `page-geo-0.1.js` carries the place the request's `cf-ipcountry` / `cf-region-code` give. The
 * proxy is played by the browser context, which adds those headers to every request it sends.
 */
import { createApp } from '../../server/app.ts';
import { parseServerConfig } from '../../server/config.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { CDN_ROOT } from './harness.ts';

export type GeoReference = { readonly origin: string; close(): Promise<void> };

/** Starts the reference server on a loopback port. */
export async function startGeoReference(): Promise<GeoReference> {
  const config = parseServerConfig({ GEO_HEADERS: 'cloudflare', TRUST_PROXY: 'loopback' });
  const app = createApp({
    store: createMemoryStore(),
    allowedOrigins: [],
    adminToken: null,
    trustedCountryHeader: config.trustedCountryHeader,
    geoHeaders: config.geoHeaders,
    trustProxy: config.trustProxy,
    adsConfigDir: null,
    countryLookup: () => null,
    cdnRoot: CDN_ROOT,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}
