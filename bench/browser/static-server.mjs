// The benchmark's tiny HTTP server on 127.0.0.1: one port for the pages (the CDN tree, the
// peers' files from node_modules, generated pages and configs) and a second port serving the
// "third-party" script, so that script is cross-origin. Text is gzip-compressed (Chromium
// offers no brotli over http) and cached by the browser except the pages.
//
// With `reference` (reference-cdn.mjs) our files come from the reference server's own CDN route
// and every other script gets the Cache-Control it gives `v0.js`; without it (the auto-ads part)
// every file is `public, max-age=600`. `setCacheState('cold')` makes every response `no-store`
// until `setCacheState('warm')` (the consent part's cold return visit).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CDN_ROOT } from '../../scripts/cdn-sizes.mjs';
import { isReferencePath } from './reference-cdn.mjs';

const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
};
/** Only these node_modules folders are served, under /peers/. */
const PEER_PACKAGES = ['vanilla-cookieconsent/', 'klaro/', '@iabtechlabtcf/stub/'];
const DEFAULT_CACHE_CONTROL = 'public, max-age=600';
const NO_STORE = 'no-store';

/** Counts its runs in window.__bench and tells the harness through the console (see page-probe.mjs). */
const THIRD_PARTY_SCRIPT = `(function(){var s=window.__bench;if(!s)return;s.runs++;s.runTimes.push(performance.now());if(s.visit==='first'&&s.clickAt===null)s.earlyRuns++;console.debug('bench:ran');})();`;

/** The file behind a path of the site (ours or a peer's), or null. */
function readStatic(path) {
  if (isReferencePath(path)) return join(CDN_ROOT, normalize(path));
  if (path.startsWith('/peers/')) {
    const file = normalize(path.slice('/peers/'.length));
    return PEER_PACKAGES.some((prefix) => file.startsWith(prefix)) ? join('node_modules', file) : null;
  }
  return null;
}

/** The local file a URL of the site is served from, or null (for source maps). */
export function localFileOf(url) {
  if (!URL.canParse(url)) return null;
  const file = readStatic(new URL(url).pathname);
  return file && existsSync(file) ? file : null;
}

/** 200 with the body (gzip when accepted), or 304 when a cacheable body's ETag matches `If-None-Match`. */
function send(request, response, { body, type, cacheControl }) {
  const bytes = Buffer.from(body);
  const isGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') && bytes.length > 256;
  const etag =
    cacheControl === NO_STORE
      ? null
      : `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 16)}${isGzip ? '-gzip' : ''}"`;
  const headers = {
    ...(cacheControl === null ? {} : { 'Cache-Control': cacheControl }),
    ...(etag ? { ETag: etag } : {}),
    'Access-Control-Allow-Origin': '*',
    ...(isGzip ? { Vary: 'Accept-Encoding' } : {}),
  };
  if (etag && request.headers['if-none-match'] === etag) return response.writeHead(304, headers).end();
  response.writeHead(200, { ...headers, 'Content-Type': type, ...(isGzip ? { 'Content-Encoding': 'gzip' } : {}) });
  response.end(isGzip ? gzipSync(bytes, { level: 9 }) : bytes);
}

/** The reference server's answer, with `no-store` in the cold state. */
async function sendReference(request, response, { reference, isCold }) {
  const { status, headers, body } = await reference.forward(request);
  const cacheControl = Object.keys(headers).find((name) => name.toLowerCase() === 'cache-control');
  if (isCold && cacheControl) delete headers[cacheControl];
  response.writeHead(status, isCold ? { ...headers, 'Cache-Control': NO_STORE } : headers);
  response.end(body);
}

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

/** `{origin, thirdPartyOrigin, page(path, body, type?), file(path, body, type?), setCacheState(state), close()}`. */
export async function startStaticServer({ reference = null } = {}) {
  const generated = new Map();
  const files = new Map();
  let isCold = false;
  const cacheControl = () => (isCold ? NO_STORE : reference ? reference.entryCacheControl : DEFAULT_CACHE_CONTROL);
  const site = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const made = generated.get(path);
    if (made) return send(request, response, { ...made, cacheControl: made.isPage ? NO_STORE : cacheControl() });
    if (reference && isReferencePath(path)) {
      return sendReference(request, response, { reference, isCold }).catch(() => response.writeHead(502).end());
    }
    const file = readStatic(path);
    if (!file || !existsSync(file)) return response.writeHead(404).end();
    if (!files.has(file)) files.set(file, readFileSync(file));
    send(request, response, {
      body: files.get(file),
      type: TYPES[extname(file)] ?? 'application/octet-stream',
      cacheControl: cacheControl(),
    });
  });
  const thirdParty = createServer((request, response) =>
    send(request, response, { body: THIRD_PARTY_SCRIPT, type: TYPES['.js'], cacheControl: cacheControl() }),
  );
  const [origin, thirdPartyOrigin] = await Promise.all([listen(site), listen(thirdParty)]);
  return {
    origin,
    thirdPartyOrigin,
    /** A generated page: never cached. */
    page: (path, body, type = TYPES['.html']) => generated.set(path, { body, type, isPage: true }),
    /** A generated static file (a config script): cached like the library files. */
    file: (path, body, type = TYPES['.js']) => generated.set(path, { body, type, isPage: false }),
    /** 'warm': the caching above; 'cold': every response `no-store`. */
    setCacheState: (state) => (isCold = state === 'cold'),
    close: () => Promise.all([site, thirdParty].map((server) => new Promise((resolve) => server.close(resolve)))),
  };
}
