/**
 * The page audit's guards in real Chromium: the sandbox (refused without it unless
 * `--audit-no-sandbox`), site isolation, the address guard (a page on 127.0.0.1 reaches no other
 * loopback server, by any way a page has: frame, image, fetch, popup, redirect) and the bounds
 * (a page that floods the recorder, or outlasts the deadline, ends an incomplete audit, exit 3).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import type { AuditReport } from '../../../cli/audit/report.ts';
import { html, startServer, type TestServer } from '../harness.ts';
import { runAuditCli } from './audit-cli.ts';

let browser: Browser;
let server: TestServer;
/** Another loopback server: every request that reaches it is counted. */
let target: Server;
let targetHits: string[] = [];
let other = '';
const AUDIT_TIMEOUT = 120_000;

/** `shared: null`: the audit launches its own browser, as the command does. */
const cli = (args: string[], shared: Browser | null = browser) => runAuditCli(args, shared ?? undefined);

beforeAll(async () => {
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
  server = await startServer();
  target = createServer((request, response) => {
    targetHits.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' }).end('reached');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  other = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  server.route('/redirect', { status: 302, headers: { location: `${other}/redirected` } });
  server.page(
    '/reach.html',
    html(`<main><h1>Reach</h1><iframe src="${other}/frame" title="frame"></iframe><img src="${other}/image.gif" alt="">
<img src="/redirect" alt=""><script>fetch('${other}/fetch').catch(() => {}); window.open('${other}/popup');</script></main>`),
  );
  server.page('/quiet.html', html('<main><h1>Quiet</h1></main>'));
  // Writes to storage without end: every write is a report from the page's recorder.
  server.page(
    '/flood.html',
    html(
      `<main><h1>Flood</h1><script>setInterval(() => { for (let i = 0; i < 500; i += 1) localStorage.setItem('k' + i, 'v'); }, 0);</script></main>`,
    ),
  );
  // An image that never answers: the page takes longer than a short deadline to settle.
  server.route('/never.gif', { delay: 60_000, body: '' });
  server.page('/hang.html', html('<main><h1>Hang</h1><img src="/never.gif" alt=""></main>'));
  server.page(
    '/cross-site-frame.html',
    html(`<main><h1>Frame</h1><iframe src="${server.otherOrigin}/quiet.html" title="frame"></iframe></main>`),
  );
}, AUDIT_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => target?.close(resolve));
});

describe("the audit's browser", () => {
  it('refuses to start without its sandbox unless --audit-no-sandbox is passed, and says so', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const url = `${server.origin}/quiet.html`;
    const plain = await cli(['--audit', url, '--format', 'json'], null);
    if (process.getuid?.() === 0) {
      expect(plain.code).toBe(1);
      expect(plain.out).toBe('');
      expect(plain.err).toMatch(
        /^page-validate --audit: refused: Chromium's sandbox is not available here \(Chromium does not sandbox a browser run as root\).* pass --audit-no-sandbox /,
      );
    } else {
      expect(plain.code).toBe(0);
      expect((JSON.parse(plain.out) as AuditReport).isSandboxed).toBe(true);
    }
    const flagged = await cli(['--audit', url, '--audit-no-sandbox'], null);
    expect(flagged.code).toBe(0);
    if (process.getuid?.() === 0)
      expect(flagged.out).toContain('\nbrowser: without its sandbox (--audit-no-sandbox)\n');
  });

  it('runs a cross-site frame in a process of its own (site isolation on)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/cross-site-frame.html`);
    const frame = page.frames().find((entry) => entry.url().startsWith(server.otherOrigin));
    expect(frame).toBeDefined();
    // Only a frame in another process has a DevTools session of its own.
    await expect(context.newCDPSession(frame!)).resolves.toBeDefined();
    await context.close();
  });
});

describe('the address guard', () => {
  it('lets no frame, image, fetch, popup or redirect of the page reach another loopback server, and reports each', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    targetHits = [];
    const { code, out } = await cli(['--audit', `${server.origin}/reach.html`, '--format', 'json']);
    const report = JSON.parse(out) as AuditReport;
    expect(code).toBe(0);
    expect(targetHits).toEqual([]);
    const blocked = report.journeys[0]?.blocked.map(({ url }) => url) ?? [];
    expect(blocked).toEqual(
      expect.arrayContaining(
        ['/frame', '/image.gif', '/redirected', '/fetch', '/popup'].map((path) => `${other}${path}`),
      ),
    );
    expect(report.journeys[0]?.blocked[0]?.reason).toMatch(
      /^127\.0\.0\.1:\d+ is a loopback or private address \(127\.0\.0\.1\)$/,
    );
    expect(report.options.allowPrivate).toEqual([]);
  });

  it('lets an --allow-private host through', { timeout: AUDIT_TIMEOUT }, async () => {
    targetHits = [];
    const { out } = await cli([
      '--audit',
      `${server.origin}/reach.html`,
      '--allow-private',
      '127.0.0.1',
      '--format',
      'json',
    ]);
    expect(targetHits).toEqual(expect.arrayContaining(['/frame', '/image.gif', '/redirected', '/fetch', '/popup']));
    expect((JSON.parse(out) as AuditReport).journeys[0]?.blocked).toEqual([]);
  });
});

describe('the audit bounds', () => {
  it('stop a page that floods the recorder at the record cap: incomplete, exit 3', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const started = Date.now();
    const { code, out } = await cli([
      '--audit',
      `${server.origin}/flood.html`,
      '--max-records',
      '200',
      '--format',
      'json',
    ]);
    const report = JSON.parse(out) as AuditReport;
    expect(code).toBe(3);
    expect(report.incomplete).toEqual({ bound: 'records', detail: 'more than 200 page reports in one journey' });
    expect(report.journeys[0]).toMatchObject({
      status: 'not-run',
      reason: 'stopped: more than 200 page reports in one journey',
    });
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('stop an audit at its deadline, and the text report says it is incomplete', {
    timeout: AUDIT_TIMEOUT,
  }, async () => {
    const started = Date.now();
    const { code, out } = await cli(['--audit', `${server.origin}/hang.html`, '--timeout', '2']);
    expect(code).toBe(3);
    expect(out).toContain(
      '\nincomplete: the deadline bound stopped the audit (the audit passed its deadline of 2 s); what follows is partial\n',
    );
    expect(out).toMatch(/: 0 findings, incomplete \(deadline bound\)\n$/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
