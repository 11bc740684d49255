// The benchmark's tiny HTTP server on 127.0.0.1: one port for the pages (the CDN tree, the
// peers' files from node_modules, generated pages and configs) and a second port serving the
// "third-party" script, so that script is cross-origin. Text is gzip-compressed (Chromium
// offers no brotli over http) and cached by the browser except the pages.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CDN_ROOT } from '../../scripts/cdn-sizes.mjs';

const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html; charset=utf-8', '.json': 'application/json' };
/** Only these node_modules folders are served, under /peers/. */
const PEER_PACKAGES = ['vanilla-cookieconsent/', 'klaro/', '@iabtechlabtcf/stub/'];

/** Counts its runs in window.__bench and tells the harness through the console (see page-probe.mjs). */
const THIRD_PARTY_SCRIPT = `(function(){var s=window.__bench;if(!s)return;s.runs++;s.runTimes.push(performance.now());if(s.visit==='first'&&s.clickAt===null)s.earlyRuns++;console.debug('bench:ran');})();`;

function readStatic(path) {
  if (path === '/v0.js' || path.startsWith('/v0/')) return join(CDN_ROOT, normalize(path));
  if (path.startsWith('/peers/')) {
    const file = normalize(path.slice('/peers/'.length));
    return PEER_PACKAGES.some((prefix) => file.startsWith(prefix)) ? join('node_modules', file) : null;
  }
  return null;
}

function send(request, response, { body, type, isCacheable }) {
  const bytes = Buffer.from(body);
  const isGzip = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '') && bytes.length > 256;
  response.writeHead(200, {
    'Content-Type': type,
    'Cache-Control': isCacheable ? 'public, max-age=600' : 'no-store',
    'Access-Control-Allow-Origin': '*',
    ...(isGzip ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
  });
  response.end(isGzip ? gzipSync(bytes, { level: 9 }) : bytes);
}

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

/** `{origin, thirdPartyOrigin, page(path, body, type?), close()}`. */
export async function startStaticServer() {
  const pages = new Map();
  const files = new Map();
  const site = createServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const page = pages.get(path);
    if (page) return send(request, response, { ...page, isCacheable: false });
    const file = readStatic(path);
    if (!file || !existsSync(file)) return response.writeHead(404).end();
    if (!files.has(file)) files.set(file, readFileSync(file));
    send(request, response, { body: files.get(file), type: TYPES[extname(file)] ?? 'application/octet-stream', isCacheable: true });
  });
  const thirdParty = createServer((request, response) =>
    send(request, response, { body: THIRD_PARTY_SCRIPT, type: TYPES['.js'], isCacheable: true }),
  );
  const [origin, thirdPartyOrigin] = await Promise.all([listen(site), listen(thirdParty)]);
  return {
    origin,
    thirdPartyOrigin,
    page: (path, body, type = TYPES['.html']) => pages.set(path, { body, type }),
    close: () => Promise.all([site, thirdParty].map((server) => new Promise((resolve) => server.close(resolve)))),
  };
}
