/**
 * Our own examples are the first publishers: `page-validate` and the page audit run over every
 * page in examples/ and over the README's complete page, served by the real reference server (from
 * a copy of examples/ with the README page added), and none may have a finding in any journey, a
 * fair-choice warning, a GPC notice warning, or a validator error or warning. The pages that link
 * to the debug geo hash of a US state honour GPC in the audit's GPC visit and show the notice.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { auditPage } from '../../../cli/audit/audit-page.ts';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import { formatAuditText } from '../../../cli/audit/format-text.ts';
import { isGpcNoticeMissing } from '../../../cli/audit/rules-run.ts';
import { formatReports } from '../../../cli/format-findings.ts';
import { validatePage } from '../../../cli/validate-page.ts';
import { type ServerProcess, startServer } from '../../server/server-process.ts';

/** The README's complete page, its bundles taken from the server that serves it. */
const README_PAGE = 'readme-complete-page.html';
const readmePage = (/```html\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))?.[1] ?? '').replaceAll(
  'http://localhost:8080/',
  '/',
);
const PAGES = [
  ...readdirSync('examples')
    .filter((name) => name.endsWith('.html'))
    .sort(),
  README_PAGE,
];

let browser: Browser;
let server: ServerProcess;
let dir = '';
/** When the first page's audit began and the last one ended (pages run two at a time). */
const sweep = { began: Number.POSITIVE_INFINITY, ended: 0 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-audit-examples-'));
  cpSync('examples', join(dir, 'examples'), { recursive: true });
  writeFileSync(join(dir, 'examples', README_PAGE), readmePage);
  server = await startServer(
    {
      DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
      ADMIN_TOKEN: 'audit-examples-admin-token',
      EXAMPLES_ROOT: join(dir, 'examples'),
    },
    90_000,
  );
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
}, 150_000);
afterAll(async () => {
  console.log(
    `audit of ${PAGES.length} example pages: ${(Math.max(0, sweep.ended - sweep.began) / 1000).toFixed(1)} s`,
  );
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

// Two pages at a time (the e2e project's maxConcurrency): each journey has its own browser context,
// and much of a journey is waiting for the page to settle.
it.concurrent.for(PAGES)(
  'examples/%s passes page-validate and has no finding or fair-choice warning in the audit',
  { timeout: 240_000 },
  async (name, { expect }) => {
    const source = readFileSync(join(dir, 'examples', name), 'utf8');
    const url = new URL(`${server.url}/examples/${name}`);
    const findings = validatePage(source, url.href);
    expect(findings, formatReports([{ name, findings }], 'text')).toEqual([]);
    sweep.began = Math.min(sweep.began, Date.now());
    const { report } = await auditPage(browser, url, { pages: 0, allow: [] });
    sweep.ended = Math.max(sweep.ended, Date.now());
    // A page with the head stub first may still pass 500 ms here: the stub is a blocking external
    // script, and on the shared test machine its fetch alone can take that long (the threshold is
    // tested with an inline stub in audit-vendors-prompt.test.ts).
    const tolerated = source.includes('<script src="/v0/page-consent-stub-0.1.js">') ? ['audit-tcfapi-late'] : [];
    const codes = report.journeys.flatMap((journey) => journey.findings.map((finding) => finding.code));
    expect(
      codes.filter((code) => !tolerated.includes(code)),
      formatAuditText(report),
    ).toEqual([]);
    expect(report.journeys[0]?.status).toBe('run');
    // A page with a consent element shows its prompt to a new reader (geo.html asks only readers in
    // its geo group, which the test machine is not in), and both decisions take effect.
    const hasConsent = source.includes('<page-consent') && name !== 'geo.html';
    expect(report.isPromptShown).toBe(hasConsent);
    if (hasConsent)
      expect(report.journeys.map(({ status, reason }) => reason ?? status)).toEqual(['run', 'run', 'run']);
    // The rendered prompt's Reject is as prominent as its Accept (an empty list: both found, equal).
    expect(report.fairChoice, formatAuditText(report)).toEqual(hasConsent ? [] : null);
    // A GPC opt-out in force is said on the page; the US pages' own links put the GPC visit in California.
    expect(isGpcNoticeMissing(report), formatAuditText(report)).toBe(false);
    if (name === 'us-states.html' || name === 'geo.html')
      expect(report.gpc, formatAuditText(report)).toEqual({ honored: true, noticeShown: true });
  },
);
