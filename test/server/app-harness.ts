/** Builds an app on a memory store with throwaway CDN, examples and ads-config folders. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { type AppDeps, createApp } from '../../server/app.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';

export const pageOrigin = 'https://news.example';
export const adminToken = 'test-admin-token-0123456789';
export const geoSource = 'self.PAGE_COUNTRY="{{PAGE_GEO_COUNTRY}}";console.log(1);';
export const runtimeSource = `/* runtime */ ${'console.log("page runtime");'.repeat(50)}`;

/** Countries by IP for the fake lookup. */
export const countries: Record<string, string> = { '203.0.113.7': 'DE', '198.51.100.9': 'US' };

export type Harness = {
  app: FastifyInstance;
  store: ConsentStore;
  dir: string;
  now: { value: number };
  close(): Promise<void>;
};

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Closed after each test unless `keepOpen` (then the caller calls close()). */
export async function buildApp(overrides: Partial<AppDeps> = {}, keepOpen = false): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'page-app-'));
  writeFiles(dir, {
    'cdn/v0.js': runtimeSource,
    'cdn/v0.js.map': '{"version":3}',
    'cdn/v0/page-geo-0.1.js': geoSource,
    'cdn/v0/page-consent-0.1.js': 'console.log("consent");',
    'examples/first.html': '<!doctype html><title>First example</title><p>one</p>',
    'examples/style.css': 'body{}',
    'examples/.secret': 'hidden',
    'examples/nested/index.html': '<!doctype html><title>Nested</title>',
    'ads/demo.json': JSON.stringify({ placements: [{ anchor: { selector: 'article p' }, pos: 4, type: 1 }] }),
  });
  const now = { value: Date.UTC(2025, 5, 15, 12) };
  const store = overrides.store ?? createMemoryStore();
  const app = createApp({
    store,
    allowedOrigins: [pageOrigin],
    adminToken,
    trustedCountryHeader: null,
    adsConfigDir: join(dir, 'ads'),
    countryLookup: (ip) => countries[ip] ?? null,
    cdnRoot: join(dir, 'cdn'),
    examplesRoot: join(dir, 'examples'),
    now: () => now.value,
    ...overrides,
  });
  await app.ready();
  const close = async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  if (!keepOpen) cleanups.push(close);
  return { app, store, dir, now, close };
}

export const json = { 'content-type': 'application/json' };
export const bearer = { authorization: `Bearer ${adminToken}` };

/** The `page_uid=...` pair of a Set-Cookie header, for the next request. */
export function cookieOf(header: string | string[] | number | undefined): string {
  const value = Array.isArray(header) ? header[0] : String(header);
  return value!.split(';')[0]!;
}
