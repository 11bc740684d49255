/**
 * Our own examples are the first publishers: the page audit runs over every page in examples/,
 * served by the real reference server, and none may have a finding in any journey.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditPage } from '../../../cli/audit/audit-page.ts';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import { formatAuditText } from '../../../cli/audit/format-text.ts';
import { type ServerProcess, startServer } from '../../server/server-process.ts';

const PAGES = readdirSync('examples').filter((name) => name.endsWith('.html')).sort();

let browser: Browser;
let server: ServerProcess;
let dir = '';
let sweepMs = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-audit-examples-'));
  server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'page.db')}`, ADMIN_TOKEN: 'audit-examples-admin-token' }, 90_000);
  browser = await launchAuditBrowser();
}, 150_000);
afterAll(async () => {
  console.log(`audit of ${PAGES.length} example pages: ${(sweepMs / 1000).toFixed(1)} s`);
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

it.each(PAGES)('examples/%s has no finding in any journey', { timeout: 240_000 }, async (name) => {
  const started = Date.now();
  const { report } = await auditPage(browser, new URL(`${server.url}/examples/${name}`), { pages: 0, allow: [] });
  sweepMs += Date.now() - started;
  expect(report.findingCount, formatAuditText(report)).toBe(0);
  expect(report.journeys[0]?.status).toBe('run');
  // A page with a consent element shows its prompt to a new reader (geo.html asks only readers in
  // its geo group, which the test machine is not in), and both decisions take effect.
  const hasConsent = readFileSync(join('examples', name), 'utf8').includes('<page-consent') && name !== 'geo.html';
  expect(report.isPromptShown).toBe(hasConsent);
  if (hasConsent) expect(report.journeys.map(({ status, reason }) => reason ?? status)).toEqual(['run', 'run', 'run']);
});
