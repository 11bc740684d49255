/**
 * E2E harness: real Chromium (playwright-core, /usr/bin/chromium, headless, fresh profile) and a
 * loopback HTTP server on port 0 that serves the built CDN tree, test pages and scripted
 * endpoints, and records every request.
 */
import { readFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { onTestFinished } from 'vitest';
import { trackRequests } from './settled.ts';

export { settled } from './settled.ts';
export { launchBrowser } from '../browser.ts';

export const CDN_ROOT = process.env.E2E_CDN_ROOT ?? 'dist/cdn';

/** Closes `context` when the running test ends; a page opened outside a test stays the caller's to close. */
function closeAtTestEnd(context: BrowserContext): void {
  try {
    onTestFinished(() => context.close());
  } catch {}
}

export type ConsoleLine = { readonly type: string; readonly text: string };

export type TestPage = { page: Page; context: BrowserContext; messages: ConsoleLine[]; errors: string[] };

/**
 * A fresh context (empty storage and cookies) and page that collects console lines and page
 * errors. Opened in a test, it is closed when the test ends: a page left open keeps its renderer
 * and timers running through the rest of the file.
 */
export async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<TestPage> {
  const context = await browser.newContext(options);
  closeAtTestEnd(context);
  const page = await context.newPage();
  const messages: ConsoleLine[] = [];
  const errors: string[] = [];
  page.on('console', (message) => messages.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => errors.push(String(error)));
  trackRequests(page);
  return { page, context, messages, errors };
}

export type RecordedRequest = {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly time: number;
};

export type Reply = {
  status?: number;
  body?: string | object;
  /** A header given as a list is sent as several lines (`set-cookie`). */
  headers?: Record<string, string | string[]>;
  /** Milliseconds to wait before answering. */
  delay?: number;
};

export type Route = Reply | ((request: RecordedRequest) => Reply | Promise<Reply>);

export type TestServer = {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
  /** The same server under another origin, `http://localhost:port` (cross-origin to `origin`). */
  readonly otherOrigin: string;
  readonly requests: RecordedRequest[];
  route(path: string, route: Route): void;
  page(path: string, html: string): void;
  requestsTo(path: string): RecordedRequest[];
  close(): Promise<void>;
};

const TYPES: Record<string, string> = {
  js: 'text/javascript',
  map: 'application/json',
  html: 'text/html',
  json: 'application/json',
};

/**
 * The CDN file a path names: `/v0.js`, `/v0/...`, or the same under a prefix (`/slow/v0/...`,
 * for pages that route a delayed copy of a bundle: its parts load from beside it).
 */
function cdnFile(requested: string): string | null {
  const start = requested.search(/\/v0(\.js$|\/)/);
  const path = start > 0 ? requested.slice(start) : requested;
  if (path !== '/v0.js' && !path.startsWith('/v0/')) return null;
  const file = normalize(join(CDN_ROOT, path));
  return file.startsWith(normalize(CDN_ROOT)) && existsSync(file) ? file : null;
}

async function send(response: ServerResponse, reply: Reply, origin: string | undefined) {
  if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
  const isText = typeof reply.body === 'string' || reply.body === undefined;
  const headers: Record<string, string | string[]> = {
    'content-type': isText ? 'text/html; charset=utf-8' : 'application/json',
    ...(origin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true' } : {}),
    ...reply.headers,
  };
  response.writeHead(reply.status ?? 200, headers);
  response.end(isText ? (reply.body ?? '') : JSON.stringify(reply.body));
}

/** Starts the server. `routes` answer any method; OPTIONS preflights are answered for every route. */
export async function startServer(routes: Record<string, Route> = {}): Promise<TestServer> {
  const table = new Map<string, Route>(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://test');
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      url: url.pathname + url.search,
      headers: request.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      time: Date.now(),
    };
    const origin = request.headers.origin;
    if (recorded.method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': origin ?? '*',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET,POST',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
      });
      return response.end();
    }
    requests.push(recorded);
    const route = table.get(url.pathname);
    const file = route ? null : cdnFile(url.pathname);
    if (file) {
      response.writeHead(200, { 'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream' });
      return response.end(readFileSync(file));
    }
    if (!route) return send(response, { status: 404, body: 'not found' }, origin);
    try {
      await send(response, typeof route === 'function' ? await route(recorded) : route, origin);
    } catch (error) {
      await send(response, { status: 500, body: String(error) }, origin);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    otherOrigin: `http://localhost:${port}`,
    requests,
    route: (path, route) => table.set(path, route),
    page: (path, html) => table.set(path, { body: html }),
    requestsTo: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A complete HTML page that loads v0.js and the named extensions asynchronously. */
export function html(body: string, options: { head?: string; extensions?: readonly string[] } = {}): string {
  const scripts = (options.extensions ?? [])
    .map((name) => `<script async custom-element="${name}" src="/v0/${name}-0.1.js"></script>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>test</title>
<script async src="/v0.js"></script>
${scripts}
${options.head ?? ''}
</head><body>${body}</body></html>`;
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/**
 * The path of part `name` (`page-runtime-actions`) in the built tree, its file being named after
 * its content: `/v0/page-runtime-actions.<hash>.js` (scripts/part-names.mjs).
 */
export function partPath(name: string): string {
  const { files } = readJson(join(CDN_ROOT, 'part-names.json')) as { files: Record<string, string> };
  const file = files[`v0/${name}.js`];
  if (!file) throw new Error(`${name} is not a part of ${CDN_ROOT}`);
  return `/${file}`;
}
