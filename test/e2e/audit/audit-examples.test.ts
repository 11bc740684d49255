/**
 * Our own examples are the first publishers: the page audit runs over every page in examples/,
 * served by the real reference server, and none may have a finding in any journey.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { auditPage } from '../../../cli/audit/audit-page.ts';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import { formatAuditText } from '../../../cli/audit/format-text.ts';
import { type ServerProcess, startServer } from '../../server/server-process.ts';

const PAGES = readdirSync('examples').filter((name) => name.endsWith('.html')).sort();

let browser: Browser;
let server: ServerProcess;
let dir = '';
/** When the first page's audit began and the last one ended (pages run two at a time). */
const sweep = { began: Number.POSITIVE_INFINITY, ended: 0 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-audit-examples-'));
  server = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'page.db')}`, ADMIN_TOKEN: 'audit-examples-admin-token' }, 90_000);
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
}, 150_000);
afterAll(async () => {
  console.log(`audit of ${PAGES.length} example pages: ${(Math.max(0, sweep.ended - sweep.began) / 1000).toFixed(1)} s`);
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

// Two pages at a time (the e2e project's maxConcurrency): each journey has its own browser context,
// and much of a journey is waiting for the page to settle.
it.concurrent.for(PAGES)('examples/%s has no finding in any journey', { timeout: 240_000 }, async (name, { expect }) => {
  sweep.began = Math.min(sweep.began, Date.now());
  const { report } = await auditPage(browser, new URL(`${server.url}/examples/${name}`), { pages: 0, allow: [] });
  sweep.ended = Math.max(sweep.ended, Date.now());
  expect(report.findingCount, formatAuditText(report)).toBe(0);
  expect(report.journeys[0]?.status).toBe('run');
  // A page with a consent element shows its prompt to a new reader (geo.html asks only readers in
  // its geo group, which the test machine is not in), and both decisions take effect.
  const hasConsent = readFileSync(join('examples', name), 'utf8').includes('<page-consent') && name !== 'geo.html';
  expect(report.isPromptShown).toBe(hasConsent);
  if (hasConsent) expect(report.journeys.map(({ status, reason }) => reason ?? status)).toEqual(['run', 'run', 'run']);
});
