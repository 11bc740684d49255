/**
 * The site audit (`page-validate --audit --sitemap`) in real Chromium over a small fixture site
 * on loopback: a sitemap index with two sitemaps, three pages of which one fires a tracker's
 * pixel before any decision. The run audits each page (one line per page on stderr when it is
 * not a terminal), writes a site report that matches the schema with its summary (findings by
 * rule, pages affected), and a second run with `--compare` says the pixel's finding is gone
 * once the page is fixed. A sitemap that cannot be read and a `--compare` file that is not a
 * report each give one diagnostic line. The tests run as root, so without the browser's sandbox.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import type { SiteReport } from '../../../cli/audit/report.ts';
import { html, startServer, type TestServer } from '../harness.ts';
import { runAuditCli, validateReport } from './audit-cli.ts';
import { consentMarkup } from './fixtures.ts';

let browser: Browser;
let server: TestServer;
let dir = '';
let first: { code: number; out: string; err: string };
/** Two site audits of three pages each, on a loaded two-core machine. */
const SITE_TIMEOUT = 360_000;

const validate = validateReport;

const cli = (args: string[]) => runAuditCli(args, browser);

const urlset = (paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((path) => `<url><loc>${server.origin}${path}</loc></url>`).join('')}</urlset>`;
const xml = (body: string) => ({ body, headers: { 'content-type': 'application/xml' } });
const article = (title: string, extra = '') =>
  html(`${consentMarkup()}<main><h1>${title}</h1>${extra}</main>`, { extensions: ['page-consent'] });
const siteArgs = (more: string[]) => [
  '--audit',
  '--sitemap',
  `${server.origin}/sitemap-index.xml`,
  '--pages',
  '3',
  '--allow-private',
  'localhost',
  '--format',
  'json',
  ...more,
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'site-audit-'));
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
  server = await startServer();
  const tracker = server.otherOrigin;
  server.route(
    '/sitemap-index.xml',
    xml(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${server.origin}/sitemap-1.xml</loc></sitemap><sitemap><loc>${server.origin}/sitemap-2.xml</loc></sitemap></sitemapindex>`,
    ),
  );
  server.route('/sitemap-1.xml', xml(urlset(['/site/home.html', '/site/pixel.html'])));
  server.route('/sitemap-2.xml', xml(urlset(['/site/about.html', '/site/more.html'])));
  server.route('/pixel.gif', { body: 'GIF89a', headers: { 'content-type': 'image/gif' } });
  server.page('/site/home.html', article('Home'));
  server.page('/site/pixel.html', article('Pixel', `<img src="${tracker}/pixel.gif" alt="" width="1" height="1">`));
  server.page('/site/about.html', article('About'));
  server.page('/site/more.html', article('More'));
  first = await cli(siteArgs(['--out', join(dir, 'first'), '--declaration', join(dir, 'declaration.html')]));
}, SITE_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a site audit from a sitemap', () => {
  it('audits the pages of a sitemap index up to --pages, one line per page on stderr', () => {
    const report = JSON.parse(first.out) as SiteReport;
    expect(report.kind, first.err).toBe('site');
    expect(report.pages.map((page) => page.url)).toEqual([
      `${server.origin}/site/home.html`,
      `${server.origin}/site/pixel.html`,
      `${server.origin}/site/about.html`,
    ]);
    expect(report.sitemaps).toEqual([
      `${server.origin}/sitemap-index.xml`,
      `${server.origin}/sitemap-1.xml`,
      `${server.origin}/sitemap-2.xml`,
    ]);
    const lines = first.err.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^page 2/3 ${server.origin}/site/pixel\\.html: \\d+ findings?, \\d+\\.\\d s$`));
  });

  it('sums the findings by rule with the pages affected, exits 1 and matches the schema', () => {
    const report = JSON.parse(first.out) as SiteReport;
    const request = report.summary.rules.find((rule) => rule.code === 'audit-third-party-request');
    expect(request?.pages, first.out.slice(0, 2_000)).toEqual([`${server.origin}/site/pixel.html`]);
    expect(report.summary).toMatchObject({ pages: 3, pagesWithFindings: 1 });
    expect(first.code).toBe(1);
    expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const text = readFileSync(join(dir, 'first', 'audit.txt'), 'utf8');
    expect(text).toContain('site summary: ');
    expect(text).toMatch(
      new RegExp(
        `\n  audit-third-party-request: \\d+ finding\\(s\\) on 1 page\\(s\\)\n    ${server.origin}/site/pixel\\.html\n`,
      ),
    );
  });

  it('writes the site report as accessible HTML, and one cookie declaration for every page', async () => {
    const html = readFileSync(join(dir, 'first', 'audit.html'), 'utf8');
    expect(html).toContain('<caption>Findings by rule</caption>');
    expect(readFileSync(join(dir, 'declaration.html'), 'utf8')).toContain(`${server.origin}/sitemap-index.xml`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`file://${join(dir, 'first', 'audit.html')}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Site audit of');
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.length}`)).toEqual([]);
    await context.close();
  });

  it(
    'says with --compare that the finding is gone once the page is fixed',
    async () => {
      server.page('/site/pixel.html', article('Pixel'));
      const second = await cli(siteArgs(['--compare', join(dir, 'first', 'audit.json')]));
      const report = JSON.parse(second.out) as SiteReport;
      expect(
        report.comparison?.gone.map(({ page, code }) => `${code} ${page}`),
        second.err,
      ).toContain(`audit-third-party-request ${server.origin}/site/pixel.html`);
      expect(report.comparison?.new).toEqual([]);
      const gone = report.comparison?.gone.find((rule) => rule.code === 'audit-third-party-request');
      expect(gone?.before).toBeGreaterThan(0);
      expect(gone).toMatchObject({
        now: 0,
        removed: [`${server.otherOrigin}/pixel.gif`],
      });
      expect(validate(report), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      expect(second.code).toBe(0);
    },
    SITE_TIMEOUT,
  );

  it('refuses a --compare file that is not a report with one diagnostic, before auditing', async () => {
    const path = join(dir, 'not-a-report.json');
    writeFileSync(path, JSON.stringify({ schemaVersion: 1, url: 'x' }));
    const result = await cli(siteArgs(['--compare', path]));
    expect(result).toEqual({
      code: 2,
      out: '',
      err: 'page-validate --audit: audit-compare-invalid: expected journeys of an audit report, got nothing\n',
    });
  });

  it('refuses a sitemap that cannot be read with one diagnostic', async () => {
    server.route('/not-a-sitemap.xml', { body: '<html><body>Not here</body></html>' });
    const result = await cli(['--audit', '--sitemap', `${server.origin}/not-a-sitemap.xml`]);
    expect(result).toEqual({
      code: 1,
      out: '',
      err: 'page-validate --audit: audit-sitemap-unreadable: expected an XML sitemap (<urlset> or <sitemapindex>) without a DTD, got <html>\n',
    });
  });
});
