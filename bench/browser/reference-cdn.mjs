// Our files as the reference server serves them: `/v0.js` and `/v0/*` are answered by the
// project's own app (server/app.ts `createApp`, on a memory store, through `app.inject`, no
// socket), so a page gets them with the headers, encodings, ETags and 304s of
// server/routes/cdn.ts, whatever that route sends (short caching for entry files, long and
// `immutable` for content-hashed parts, or anything else). The bench reads those headers from the
// responses; it writes none of them.
import { CDN_ROOT } from '../../scripts/cdn-sizes.mjs';
import { createApp } from '../../server/app.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';

/** Headers of one connection, not of the response: node:http sets its own. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/** Whether the reference server's CDN route answers `path` (server/routes/cdn.ts). */
export const isReferencePath = (path) => path === '/v0.js' || path.startsWith('/v0/');

/**
 * `{forward(request), entryCacheControl, close()}`: `forward` answers a node:http request with
 * the app's `{status, headers, body}`; `entryCacheControl` is the Cache-Control the app sends
 * with `v0.js`, the entry file every page names, or null without one (the static server gives
 * it to the other unhashed scripts, the peers' and the third party's, so they are cached alike).
 */
export async function startReferenceCdn({ cdnRoot = CDN_ROOT } = {}) {
  const app = createApp({
    store: createMemoryStore(),
    allowedOrigins: [],
    adminToken: null,
    trustedCountryHeader: null,
    adsConfigDir: null,
    countryLookup: () => null,
    cdnRoot,
  });
  await app.ready();
  const forward = async ({ method, url, headers }) => {
    const response = await app.inject({ method, url, headers });
    const kept = Object.entries(response.headers).filter(([name]) => !CONNECTION_HEADERS.has(name.toLowerCase()));
    return { status: response.statusCode, headers: Object.fromEntries(kept), body: response.rawPayload };
  };
  const entry = await app.inject({ url: '/v0.js' });
  if (entry.statusCode !== 200)
    throw new Error(`reference server: GET /v0.js answered ${entry.statusCode} (run npm run build)`);
  const cacheControl = entry.headers['cache-control'];
  return {
    forward,
    entryCacheControl: cacheControl === undefined ? null : String(cacheControl),
    close: () => app.close(),
  };
}
