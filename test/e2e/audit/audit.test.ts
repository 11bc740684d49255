/**
 * The page audit (`page-validate --audit`) on fixture sites in real Chromium: the page on
 * 127.0.0.1, a tracker on localhost and a CDN on cdn.localhost, three sites (fixtures.ts), all
 * loopback, so the tracker and the CDN are let through the address guard by `--allow-private
 * localhost`. The tests run as root: the browser runs without its sandbox (`--audit-no-sandbox`,
 * here by `isNoSandboxAllowed`). Each
 * leak is found in the right journey with the right initiator, the `--allow` host is listed
 * apart, a clean page has no finding, the JSON matches its schema, the HTML report passes axe.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import { FETCH_TIMEOUT_MS } from '../../../cli/fetch-page.ts';
import type { AuditReport, JourneyReport } from '../../../cli/audit/report.ts';
import { startServer, type TestServer } from '../harness.ts';
import { runAuditCli, validateReport } from './audit-cli.ts';
import {
  cleanPage,
  fixtureRoutes,
  leakyPage,
  noConsentPage,
  purposePage,
  REFUSED_COOKIE,
  secondPage,
} from './fixtures.ts';

let browser: Browser;
let server: TestServer;
let tracker = '';
let cdn = '';
let leaky: AuditReport;
let leakyExit = 0;
let leakyHtml = '';
let dir = '';
/** A whole audit (three journeys) on a loaded two-core machine. */
const AUDIT_TIMEOUT = 240_000;

const validate = validateReport;

const cli = (args: string[]) => runAuditCli(args, browser);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-audit-'));
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
  server = await startServer();
  const port = new URL(server.origin).port;
  tracker = `http://localhost:${port}`;
  cdn = `http://cdn.localhost:${port}`;
  for (const [path, route] of Object.entries(fixtureRoutes(tracker))) server.route(path, route);
  server.route('/leaky.html', { body: leakyPage(tracker, cdn), headers: { 'set-cookie': 'first_visit=1; Path=/' } });
  server.page('/clean.html', cleanPage(tracker));
  server.page('/clean-2.html', secondPage(tracker));
  server.page('/no-consent.html', noConsentPage());
  server.page('/purposes.html', purposePage(tracker));
  server.page('/huge.html', `<!doctype html><title>huge</title>${'<p>padding</p>'.repeat(450_000)}`);
  // One audit of the leaky page through the CLI serves every test of that page.
  const result = await cli([
    '--audit',
    `${server.origin}/leaky.html`,
    '--allow',
    'cdn.localhost',
    '--allow-private',
    'localhost',
    '--format',
    'json',
    '--out',
    join(dir, 'leaky'),
    '--declaration',
    join(dir, 'declaration.html'),
  ]);
  leaky = JSON.parse(result.out) as AuditReport;
  leakyExit = result.code;
}, AUDIT_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const journey = (report: AuditReport, name: JourneyReport['name']) =>
  report.journeys.find((entry) => entry.name === name)!;
const findingFor = (entry: JourneyReport, what: string) =>
  entry.findings.find((finding) => finding.what.includes(what));

describe('a leaky page', () => {
  it('finds the unmarked third-party <img> before the decision, caused by the page itself', () => {
    const finding = findingFor(journey(leaky, 'no-decision'), '/unmarked.gif');
    expect(finding).toMatchObject({
      code: 'audit-third-party-request',
      phase: 'before',
      initiator: { tag: { kind: 'image', url: `${tracker}/unmarked.gif` } },
    });
    expect(finding?.initiator.chain).toEqual([`${leaky.url}`]);
    expect(finding?.hint).toContain('<page-img');
  });

  it('finds the cookie written by a script that another script injected, with the whole chain', () => {
    const finding = findingFor(journey(leaky, 'no-decision'), 'audit_id');
    expect(finding).toMatchObject({
      code: 'audit-third-party-cookie',
      phase: 'before',
      initiator: { tag: { kind: 'script', url: `${tracker}/tag-manager.js` } },
    });
    expect(finding?.initiator.chain).toEqual([`${tracker}/analytics.js`, `${tracker}/tag-manager.js`, leaky.url]);
    const cookie = journey(leaky, 'no-decision').cookies.find((entry) => entry.name === 'audit_id');
    expect(cookie).toMatchObject({
      setBy: 'script',
      isPersistent: true,
      party: 'first',
      source: `${tracker}/analytics.js`,
    });
    expect(findingFor(journey(leaky, 'no-decision'), '/analytics.js')?.initiator.chain).toEqual([
      `${tracker}/tag-manager.js`,
      leaky.url,
    ]);
  });

  it('records cookies set by response headers, first and third party', () => {
    const cookies = journey(leaky, 'no-decision').cookies;
    expect(cookies.find((entry) => entry.name === 'first_visit')).toMatchObject({
      setBy: 'header',
      party: 'first',
      isPersistent: false,
      expires: null,
      verdict: 'ok',
      source: leaky.url,
    });
    expect(cookies.find((entry) => entry.name === 'tp_uid')).toMatchObject({
      setBy: 'header',
      party: 'third',
      domain: 'localhost',
      isPersistent: true,
      verdict: 'finding',
      source: `${tracker}/unmarked.gif`,
    });
  });

  it('finds the third-party cookie an untagged <img> sets by response header, in every journey, with its request and tag', () => {
    for (const name of ['no-decision', 'reject', 'accept'] as const) {
      const finding = findingFor(journey(leaky, name), 'tp_uid');
      expect(finding, name).toMatchObject({
        code: 'audit-third-party-cookie',
        subject: 'cookie',
        phase: 'before',
        what: 'tp_uid (localhost)',
        initiator: { chain: [leaky.url], tag: { kind: 'image', url: `${tracker}/unmarked.gif` } },
      });
      expect(finding?.message, name).toMatch(
        /^expected no persistent third-party cookie .* before the decision, got tp_uid on localhost, persistent until \d{4}-.* set by header http:\/\/localhost:\d+\/unmarked\.gif$/,
      );
      expect(finding?.hint, name).toContain('<page-img');
    }
  });

  it('lists the Set-Cookie lines the browser refused apart, with its reason, never as cookies or findings', () => {
    for (const name of ['no-decision', 'reject', 'accept'] as const) {
      const entry = journey(leaky, name);
      expect(entry.refusedCookies, name).toEqual([
        {
          t: expect.any(Number),
          phase: 'before',
          page: leaky.url,
          name: 'tp_insecure',
          line: `${REFUSED_COOKIE}; Max-Age=31536000; Path=/; SameSite=None`,
          reasons: ['SameSiteNoneInsecure'],
          source: `${tracker}/unmarked.gif`,
          initiator: { chain: [leaky.url], tag: { kind: 'image', url: `${tracker}/unmarked.gif` } },
        },
      ]);
      expect(
        entry.cookies.some((cookie) => cookie.name === 'tp_insecure'),
        name,
      ).toBe(false);
      expect(findingFor(entry, 'tp_insecure'), name).toBeUndefined();
    }
    const text = readFileSync(join(dir, 'leaky', 'audit.txt'), 'utf8');
    expect(text).toContain(
      `  refused cookie: tp_insecure from ${tracker}/unmarked.gif (SameSiteNoneInsecure): ${REFUSED_COOKIE}; Max-Age=31536000`,
    );
    expect(readFileSync(join(dir, 'leaky', 'audit.html'), 'utf8')).toContain(
      '<caption>Set-Cookie lines the browser refused (nothing was stored)</caption>',
    );
  });

  it('finds the localStorage write of a third-party script, naming the writer', () => {
    const finding = findingFor(journey(leaky, 'no-decision'), 'tracker-id');
    expect(finding).toMatchObject({
      code: 'audit-third-party-storage',
      initiator: { chain: [`${tracker}/storage.js`, leaky.url] },
    });
    expect(journey(leaky, 'no-decision').requests.find((request) => request.url === `${tracker}/beacon`)).toMatchObject(
      { isBeacon: true, verdict: 'finding', initiator: { chain: [`${tracker}/storage.js`, leaky.url] } },
    );
    // Our own storage key is expected, never a finding.
    expect(
      journey(leaky, 'accept')
        .storage.filter((entry) => entry.key.startsWith('page-store:'))
        .every((entry) => entry.verdict !== 'finding'),
    ).toBe(true);
  });

  it('finds the pixel that fires on reject in the reject journey only, after the decision', () => {
    const finding = findingFor(journey(leaky, 'reject'), '/reject-pixel.gif');
    expect(finding).toMatchObject({
      phase: 'after',
      initiator: { chain: [`${server.origin}/reject-listener.js`, leaky.url] },
    });
    expect(finding?.t).toBeGreaterThanOrEqual(0);
    expect(findingFor(journey(leaky, 'no-decision'), '/reject-pixel.gif')).toBeUndefined();
    expect(journey(leaky, 'accept').requests.some((request) => request.url.endsWith('/reject-pixel.gif'))).toBe(false);
  });

  it('lists the --allow host apart, never as a finding', () => {
    for (const entry of leaky.journeys) {
      expect(entry.allowed).toContainEqual({
        allow: 'cdn.localhost',
        subject: 'request',
        what: `${cdn}/fonts.js`,
        phase: 'before',
      });
      expect(entry.findings.some((finding) => finding.what.includes('cdn.localhost'))).toBe(false);
    }
  });

  it('builds the blocked element only after the accept', () => {
    const built = (name: JourneyReport['name']) =>
      journey(leaky, name).built.filter((entry) => entry.tag === 'page-img');
    expect(built('no-decision')).toEqual([]);
    expect(built('reject')).toEqual([]);
    expect(built('accept')).toMatchObject([{ phase: 'after', block: '' }]);
    expect(journey(leaky, 'accept').requests.find((request) => request.url.endsWith('/blocked.gif'))).toMatchObject({
      phase: 'after',
      verdict: 'ok',
      initiator: { tag: { kind: 'element' } },
    });
  });

  it('writes JSON that matches the documented schema', () => {
    const isValid = validate(JSON.parse(JSON.stringify(leaky)));
    expect(validate.errors ?? []).toEqual([]);
    expect(isValid).toBe(true);
  });

  it('exits 1 and writes the report files with --out; the HTML report has no axe violations', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const out = join(dir, 'leaky');
    expect(leakyExit).toBe(1);
    leakyHtml = readFileSync(join(out, 'audit.html'), 'utf8');
    expect(leakyHtml).toContain('<h1>Page audit of');
    const json = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'));
    expect(json).toEqual(leaky);
    expect(json.screenshot).toBe('screenshot.png');
    expect(readFileSync(join(out, 'screenshot.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(out, 'audit.txt'), 'utf8')).toMatch(/^no decision: \d+ findings$/m);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`file://${join(out, 'audit.html')}`);
    expect(await page.getByRole('img', { name: /with its consent prompt/ }).isVisible()).toBe(true);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.length}`)).toEqual([]);
    await context.close();
  });

  it('declares every cookie and storage item once, with party, setter, lifetime, journeys and tag, and writes it as an accessible HTML table', async () => {
    const item = (name: string) => leaky.declaration.find((entry) => entry.name === name);
    expect(item('tp_uid')).toEqual({
      kind: 'cookie',
      name: 'tp_uid',
      domain: 'localhost',
      party: 'third',
      setBySite: 'localhost',
      source: `${tracker}/unmarked.gif`,
      isPersistent: true,
      lifetimeSeconds: expect.any(Number),
      journeys: ['no-decision', 'reject', 'accept'],
      tag: { kind: 'image', url: `${tracker}/unmarked.gif` },
      category: 'unclassified',
    });
    expect(Math.abs((item('tp_uid')?.lifetimeSeconds ?? 0) - 31_536_000)).toBeLessThanOrEqual(2);
    expect(item('first_visit')).toMatchObject({
      party: 'first',
      setBySite: '127.0.0.1',
      isPersistent: false,
      lifetimeSeconds: null,
      journeys: ['no-decision', 'reject', 'accept'],
    });
    expect(item('audit_id')).toMatchObject({
      party: 'first',
      setBySite: 'localhost',
      tag: { kind: 'script', url: `${tracker}/tag-manager.js` },
    });
    expect(item('tracker-id')).toMatchObject({
      kind: 'localStorage',
      domain: server.origin,
      party: 'third',
      isPersistent: true,
      lifetimeSeconds: null,
    });
    expect(item('tp_insecure')).toBeUndefined();
    expect(leaky.declaration.filter((entry) => entry.kind === 'cookie' && entry.name === 'tp_uid')).toHaveLength(1);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`file://${join(dir, 'declaration.html')}`);
    expect(await page.getByRole('cell', { name: 'tp_uid', exact: true }).count()).toBe(1);
    expect(await page.getByRole('columnheader', { name: 'Category' }).count()).toBe(1);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map(({ id, nodes }) => `${id}: ${nodes.length}`)).toEqual([]);
    await context.close();
  });

  it('prints one text line per finding, grouped by journey, and the allowed tags apart', () => {
    const text = readFileSync(join(dir, 'leaky', 'audit.txt'), 'utf8');
    const lines = text.split('\n');
    const reject = lines.indexOf(lines.find((line) => line.startsWith('reject: ')) ?? '');
    expect(lines.slice(reject).find((line) => line.includes('/reject-pixel.gif'))).toMatch(
      /^ {2}\+\d+\.\d s audit-third-party-request: expected no third-party request after a reject, got GET /,
    );
    expect(text).toContain(
      `allowed by --allow (not findings):\n  no decision: request ${cdn}/fonts.js (--allow cdn.localhost)`,
    );
    expect(leakyHtml).toContain('Allowed by --allow');
  });
});

describe('a clean page', () => {
  it('has no finding in any journey, follows --pages links, and runs the blocked tag only after the accept', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const { code, out } = await cli([
      '--audit',
      `${server.origin}/clean.html`,
      '--pages',
      '1',
      '--allow-private',
      'localhost',
      '--format',
      'json',
    ]);
    const report = JSON.parse(out) as AuditReport;
    expect(report.journeys.map((entry) => [entry.name, entry.status, entry.findings])).toEqual([
      ['no-decision', 'run', []],
      ['reject', 'run', []],
      ['accept', 'run', []],
    ]);
    expect(code).toBe(0);
    expect(journey(report, 'no-decision').pages).toEqual([
      `${server.origin}/clean.html`,
      `${server.origin}/clean-2.html`,
    ]);
    const accept = journey(report, 'accept');
    expect(accept.built.filter((entry) => entry.kind === 'script')).toMatchObject([
      { phase: 'after', src: `${tracker}/blocked-tag.js` },
    ]);
    expect(accept.requests.find((request) => request.url.endsWith('/after-accept.gif'))).toMatchObject({
      phase: 'after',
      verdict: 'ok',
    });
    expect(journey(report, 'reject').requests.some((request) => request.party === 'third')).toBe(false);
    expect(validate(report)).toBe(true);
  });
});

describe('a page whose tag waits for a purpose', () => {
  it('declares the cookie that tag sets after the accept under the purpose of its marker, with the tag, and has no finding (exit 0)', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const file = join(dir, 'purposes-declaration.html');
    const { code, out } = await cli([
      '--audit',
      `${server.origin}/purposes.html`,
      '--allow-private',
      'localhost',
      '--format',
      'json',
      '--declaration',
      file,
    ]);
    const report = JSON.parse(out) as AuditReport;
    expect(code).toBe(0);
    expect(report.findingCount).toBe(0);
    expect(report.declaration.find((entry) => entry.name === 'measure_id')).toEqual({
      kind: 'cookie',
      name: 'measure_id',
      domain: '127.0.0.1',
      party: 'first',
      setBySite: 'localhost',
      source: `${tracker}/measure.js`,
      isPersistent: true,
      lifetimeSeconds: 86_400,
      journeys: ['accept'],
      tag: { kind: 'script', url: `${tracker}/measure.js` },
      category: 'measurement',
    });
    expect(
      report.declaration
        .filter((entry) => entry.name !== 'measure_id')
        .every((entry) => entry.category === 'unclassified'),
    ).toBe(true);
    expect(validate(report)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(
      /<td>measure_id<\/td><td>Cookie<\/td><td>first<\/td><td>localhost<\/td><td>127\.0\.0\.1<\/td><td>1 day<\/td><td>measurement<\/td><td>after accept<\/td>/,
    );
  });
});

describe('pages the audit cannot run every journey on', () => {
  it('reports a page without a prompt as such, not as a crash (exit 0)', { timeout: AUDIT_TIMEOUT }, async () => {
    const { code, out } = await cli(['--audit', `${server.origin}/no-consent.html`, '--format', 'text']);
    expect(code).toBe(0);
    expect(out).toContain('no prompt shown');
    expect(out).toMatch(/^reject: not run \(no prompt shown\)$/m);
  });

  it('audits a local file: every http(s) request from it is a third party, named by its own tag', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const file = join(dir, 'local.html');
    // A built <page-img> with a relative src (a file: address) beside an untagged <img> and <script>.
    writeFileSync(join(dir, 'photo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    writeFileSync(
      file,
      `<!doctype html><html lang="en"><title>local</title><script async src="${server.origin}/v0.js"></script><script src="${tracker}/fonts.js"></script>
<page-img src="photo.svg" width="10" height="10" layout="fixed" alt=""></page-img><img src="${tracker}/unmarked.gif" alt=""></html>`,
    );
    const { code, out } = await cli(['--audit', file, '--allow-private', 'localhost', '127.0.0.1', '--format', 'json']);
    const report = JSON.parse(out) as AuditReport;
    expect(code).toBe(1);
    expect(report).toMatchObject({ site: 'file:', isPromptShown: false });
    const findings = [...journey(report, 'no-decision').findings].sort((a, b) => a.what.localeCompare(b.what));
    expect(findings.map(({ what, initiator }) => [what, initiator.tag])).toEqual([
      [`${tracker}/fonts.js`, { kind: 'script', url: `${tracker}/fonts.js` }],
      [`${tracker}/unmarked.gif`, { kind: 'image', url: `${tracker}/unmarked.gif` }],
      ['tp_uid (localhost)', { kind: 'image', url: `${tracker}/unmarked.gif` }],
    ]);
    expect(findings[0]?.hint).toContain(`move <script src="${tracker}/fonts.js"> into a blocked script`);
    expect(findings[1]?.hint).toContain(`replace <img src="${tracker}/unmarked.gif"> with <page-img`);
    expect(findings.map(({ hint }) => hint).join('\n')).not.toContain('file:');
  });

  it('reports an unreachable or oversized page (exit 1), and bad arguments (exit 2)', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const missing = await cli(['--audit', `${server.origin}/missing.html`, '--format', 'json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out).journeys[0]).toMatchObject({
      status: 'not-run',
      reason: 'page unreachable: HTTP 404',
    });
    const hugeBegan = Date.now();
    const huge = await cli(['--audit', `${server.origin}/huge.html`]);
    expect(huge.code).toBe(1);
    expect(huge.out).toContain('page unreachable: refused: a document over 5 MB');
    // Refused the moment it passes 5 MB: the three journeys together end within one document time-out.
    expect(Date.now() - hugeBegan).toBeLessThan(FETCH_TIMEOUT_MS);
    const file = await cli(['--audit', join(dir, 'no-such-file.html')]);
    expect(file.code).toBe(1);
    expect(file.out).toContain('page unreachable');
    for (const args of [
      ['--audit', 'ftp://example.com/'],
      ['--audit', 'x.html', '--pages', 'many'],
      ['--audit', 'x.html', '--format', 'xml'],
      ['--audit', 'x.html', '--allow', 'bad host'],
    ]) {
      expect((await cli(args)).code).toBe(2);
    }
  });
});
