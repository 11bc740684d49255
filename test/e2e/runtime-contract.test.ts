import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, html, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';
import { TEST_GATE } from './test-gate.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/img.svg': {
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      headers: { 'content-type': 'image/svg+xml' },
    },
    '/frame.html': { body: '<p>frame</p>' },
    '/pixel.gif': { body: 'GIF89a' },
    '/a.js': {
      body: 'window.runs.push("a:" + document.currentScript.dataset.tag)',
      headers: { 'content-type': 'text/javascript' },
      delay: 150,
    },
    '/b.js': { body: 'window.runs.push("b")', headers: { 'content-type': 'text/javascript' } },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, body: string, head = '') {
  server.page(path, html(body, { head }));
  const test = await newPage(browser);
  await test.page.goto(server.origin + path);
  return test;
}

const box = (selector: string) =>
  `(() => { const r = document.querySelector('${selector}').getBoundingClientRect(); return [r.width, r.height]; })()`;

describe('runtime contract: loading', () => {
  it('runs once with an extension queued before v0.js and v0.js loaded twice', async () => {
    server.page(
      '/twice.html',
      `<!doctype html><html><head><script>window.calls = 0; (self.PAGE = self.PAGE || []).push(() => window.calls++);</script>
       <script async src="/v0.js"></script><script async src="/v0.js?again"></script></head>
       <body><page-img id="i" src="/img.svg?twice" width="10" height="10"></page-img></body></html>`,
    );
    const { page, messages, errors } = await newPage(browser);
    await page.goto(`${server.origin}/twice.html`);
    await page.waitForSelector('#i img');
    await settled(page);
    expect(await page.evaluate(() => (window as any).calls)).toBe(1);
    expect(await page.$$eval('#i img', (images) => images.length)).toBe(1);
    expect(messages.filter((m) => m.type === 'error' && !m.text.includes('404'))).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('runs an extension that arrives before a late v0.js', async () => {
    server.route('/late/v0.js', {
      body: readFileSync(`${CDN_ROOT}/v0.js`, 'utf8'),
      headers: { 'content-type': 'text/javascript' },
      delay: 400,
    });
    server.page(
      '/late.html',
      `<!doctype html><html><head><script async src="/v0/page-consent-0.1.js"></script>
       <script async src="/late/v0.js"></script></head><body>
       <page-consent id="c" layout="nodisplay"><script type="application/json">{"consentInstanceId":"late","consentRequired":false}</script></page-consent>
       <page-img id="i" data-block-on-consent src="/img.svg?late" width="10" height="10"></page-img></body></html>`,
    );
    const { page, errors } = await newPage(browser);
    await page.goto(`${server.origin}/late.html`);
    await page.waitForSelector('#i img');
    expect(errors).toEqual([]);
  });

  it('builds elements added and moved after load', async () => {
    const { page } = await open('/dynamic.html', '<div id="a"></div><div id="b"></div>');
    await page.waitForFunction(() => (self as any).PAGE_RUNTIME);
    await page.evaluate(() => {
      const frame = document.createElement('page-iframe');
      frame.id = 'f';
      frame.setAttribute('src', '/frame.html');
      frame.setAttribute('width', '50');
      frame.setAttribute('height', '50');
      document.getElementById('a')!.append(frame);
    });
    await page.waitForSelector('#a #f iframe');
    await page.evaluate(() => document.getElementById('b')!.append(document.getElementById('f')!));
    await page.waitForSelector('#b #f iframe');
    expect(await page.$$eval('#f iframe', (frames) => frames.length)).toBe(1);
    await page.evaluate(() => {
      (self as any).PAGE.push((runtime: any) =>
        runtime.define(
          'test-hidden',
          class extends runtime.PageElement {
            layoutCallback() {
              (window as any).layouts = ((window as any).layouts ?? 0) + 1;
            }
          },
        ),
      );
      document.getElementById('a')!.innerHTML = '<test-hidden id="h" layout="nodisplay"></test-hidden>';
    });
    await page.waitForFunction(() => (window as any).layouts === 1);
    await page.evaluate(() => document.getElementById('b')!.append(document.getElementById('h')!));
    await page.waitForFunction(() => (window as any).layouts === 2);
    expect(await page.$eval('#h', (el) => el.classList.contains('page-laid-out'))).toBe(true);
  });

  it('builds a blocked element that the gate allowed while it was out of the document', async () => {
    const { page } = await open(
      '/detached.html',
      `${TEST_GATE}<div id="a"><page-img id="i" data-block-on-consent src="/img.svg?detached" width="10" height="10"></page-img></div>`,
    );
    await page.waitForFunction(() => (window as any).testGate);
    await page.evaluate(() => {
      const image = document.getElementById('i')!;
      image.remove();
      (window as any).testGate.set('allow');
      document.getElementById('a')!.append(image);
    });
    await page.waitForSelector('#i img');
  });

  it('reports a throwing element constructor and keeps building the others', async () => {
    const { page, messages, errors } = await open(
      '/ctor.html',
      `<test-ctor id="bad"></test-ctor><page-img id="i" src="/img.svg" width="10" height="10"></page-img>
       <script>(self.PAGE = self.PAGE || []).push((page) => {
         page.define('test-ctor', class extends page.PageElement { constructor(e, r) { super(e, r); throw new Error('ctor'); } });
       });</script>`,
    );
    await page.waitForSelector('#i img');
    await expect.poll(() => messages.some((m) => m.text.startsWith('[test-ctor#bad] build-failed'))).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('runtime contract: layouts', () => {
  it('sizes every layout', async () => {
    const { page } = await open(
      '/layouts.html',
      `<page-img id="px" src="/img.svg" width="120px" height="60px"></page-img>
       <page-img id="auto" src="/img.svg" width="auto" height="70"></page-img>
       <page-img id="honly" src="/img.svg" height="30"></page-img>
       <div style="width:400px"><page-img id="resp" src="/img.svg" layout="responsive" width="4" height="3"></page-img></div>
       <div style="width:400px"><page-img id="intr" src="/img.svg" layout="intrinsic" width="200" height="100"></page-img></div>
       <div style="width:100px"><page-img id="intr2" src="/img.svg" layout="intrinsic" width="200" height="100"></page-img></div>
       <div style="position:relative;width:300px;height:200px"><page-img id="fill" src="/img.svg" layout="fill"></page-img></div>
       <div style="display:flex;width:300px;height:50px"><div style="width:100px"></div><page-img id="flex" src="/img.svg" layout="flex-item"></page-img></div>
       <page-img id="nod" src="/img.svg" layout="nodisplay"></page-img>`,
    );
    await page.waitForSelector('#px img');
    const sizes = await page.evaluate(`({
      px: ${box('#px')}, auto: ${box('#auto')}, honly: ${box('#honly')}, resp: ${box('#resp')},
      intr: ${box('#intr')}, intr2: ${box('#intr2')}, fill: ${box('#fill')}, flex: ${box('#flex')}, nod: ${box('#nod')}
    })`);
    const width = await page.evaluate(() => document.body.clientWidth);
    expect(sizes).toEqual({
      px: [120, 60],
      auto: [width, 70],
      honly: [width, 30],
      resp: [400, 300],
      intr: [200, 100],
      intr2: [100, 50],
      fill: [300, 200],
      flex: [200, 50],
      nod: [0, 0],
    });
    expect(
      await page.$eval('#px img', (img) => [img.getBoundingClientRect().width, img.getBoundingClientRect().height]),
    ).toEqual([120, 60]);
  });
});

describe('runtime contract: no early requests', () => {
  it('requests nothing blocked before the gate allows it', async () => {
    const { page } = await open(
      '/gate-first.html',
      `${TEST_GATE}<page-img id="i" data-block-on-consent src="/img.svg?early-src" srcset="/img.svg?early-srcset 2x" width="10" height="10"></page-img>
       <page-iframe id="f" data-block-on-consent src="/frame.html?early" width="10" height="10"></page-iframe>
       <page-pixel data-block-on-consent-purposes="ads" src="/pixel.gif?early"></page-pixel>
       <page-ad id="ad" type="custom" width="10" height="10" data-src="/frame.html?early-ad&gdpr=\${GDPR}&cs=\${GDPR_CONSENT}&st=\${CONSENT_STATE}&us=\${US_PRIVACY}&x=\${NOPE}"></page-ad>`,
      '<meta name="page-consent-blocking" content="page-ad">',
    );
    await settled(page);
    expect(server.requests.filter((r) => r.url.includes('early')).map((r) => r.url)).toEqual([]);
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForSelector('#ad iframe');
    expect(await page.$eval('#ad iframe', (f) => (f as HTMLIFrameElement).src)).toMatch(
      /gdpr=1&cs=CS1&st=accepted&us=&x=\$\{NOPE\}$/,
    );
  });
});

describe('runtime contract: built-in elements', () => {
  it('loads a same-origin custom creative without allow-same-origin and without a diagnostic', async () => {
    const { page, messages } = await open(
      '/same-ad.html',
      '<page-ad id="ad" type="custom" width="10" height="10" data-src="/frame.html?same"></page-ad>',
    );
    await page.waitForSelector('#ad iframe');
    expect(await page.$eval('#ad iframe', (f) => f.getAttribute('sandbox'))).toBe(
      'allow-scripts allow-popups allow-popups-to-escape-sandbox',
    );
    expect(messages.filter((m) => m.text.includes('unsafe-iframe-sandbox'))).toEqual([]);
  });
});

describe('runtime contract: actions', () => {
  it('reports unknown actions of built elements and malformed on attributes without exceptions', async () => {
    const { page, messages, errors } = await open(
      '/bad-actions.html',
      `<page-img id="img" src="/img.svg" width="10" height="10"></page-img>
       <button id="b1" on="tap:img.explode">1</button>
       <button id="b2" on="tap:">2</button>
       <button id="b3" on="tap:img.x(a=">3</button>`,
    );
    await page.waitForSelector('#img img');
    for (const id of ['b1', 'b2', 'b3']) await page.click(`#${id}`);
    await expect
      .poll(
        () => messages.filter((m) => /unknown-action|invalid-action/.test(m.text)).map((m) => m.text.split(':')[0]),
        { timeout: 2000 },
      )
      .toHaveLength(3);
    expect(errors).toEqual([]);
  });
});

describe('runtime contract: vendor API and scripts', () => {
  it('offers page.consent at once; null policy state without page-consent; onChange unsubscribes', async () => {
    const { page } = await open(
      '/vendor.html',
      `<script>(self.PAGE = self.PAGE || []).push((page) => {
        const stop = page.consent.onChange(() => {});
        window.vendor = { type: typeof page.consent.getPolicyState, stop: typeof stop };
        page.consent.getPolicyState().then((s) => (window.vendor.state = s));
      });</script>`,
    );
    await page.waitForFunction(() => (window as any).vendor && 'state' in (window as any).vendor);
    expect(await page.evaluate(() => (window as any).vendor)).toEqual({
      type: 'function',
      stop: 'function',
      state: null,
    });
  });

  it('runs text/plain scripts, inline and with src, once, in order, keeping attributes', async () => {
    const { page } = await open(
      '/plain.html',
      `${TEST_GATE}<script>window.runs = [];</script>
       <script type="text/plain" data-block-on-consent src="/a.js" data-tag="kept" class="c"></script>
       <script type="text/plain" data-block-on-consent>window.runs.push('inline')</script>
       <script type="text/plain" data-block-on-consent src="/b.js"></script>`,
    );
    await settled(page);
    expect(server.requests.filter((r) => r.path === '/a.js' || r.path === '/b.js')).toHaveLength(0);
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForFunction(() => (window as any).runs.length === 3);
    await page.evaluate(() => {
      (window as any).testGate.set('deny');
      (window as any).testGate.set('allow');
    });
    await settled(page);
    expect(await page.evaluate(() => (window as any).runs)).toEqual(['a:kept', 'inline', 'b']);
    expect(await page.$eval('script.c', (s) => s.getAttribute('type'))).toBe('text/javascript');
  });
});

describe('runtime contract: storage', () => {
  it('writes base64 JSON with a version under page-store:{hostname}', async () => {
    const { page } = await open('/store.html', '');
    await page.waitForFunction(() => (self as any).PAGE_RUNTIME);
    const raw = await page.evaluate(() => {
      (self as any).PAGE_RUNTIME.storage.set('k', 'é');
      return localStorage.getItem(`page-store:${location.hostname}`);
    });
    const json = JSON.parse(Buffer.from(raw!, 'base64').toString('utf8'));
    expect(json).toEqual({ version: 1, values: { k: 'é' } });
  });
});
