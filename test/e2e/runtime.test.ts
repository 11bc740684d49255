import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';
import { TEST_GATE } from './test-gate.ts';

const DEFINE_TEST_ELEMENTS = `<script>
  (self.PAGE = self.PAGE || []).push((page) => {
    page.define('test-counter', class extends page.PageElement {
      buildCallback() {
        this.element.textContent = '0';
        this.registerAction('add', (args) => { this.element.textContent = String(Number(this.element.textContent) + args.n); });
      }
    });
    page.define('test-broken', class extends page.PageElement {
      buildCallback() { throw new Error('boom'); }
    });
    page.define('test-ok', class extends page.PageElement {
      buildCallback() { this.element.textContent = 'built'; }
    });
  });
</script>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/pixel.gif': { body: 'GIF89a' },
    '/img.svg': svg(),
    '/frame.html': { body: '<p>frame</p>' },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function svg() {
  return {
    body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="teal"/></svg>',
    headers: { 'content-type': 'image/svg+xml' },
  };
}

async function open(path: string, body: string, head = '') {
  server.page(path, html(body, { head }));
  const test = await newPage(browser);
  await test.page.goto(server.origin + path);
  return test;
}

describe('built-in elements', () => {
  it('builds and renders page-img, page-iframe, page-pixel and page-ad', async () => {
    const { page, messages } = await open(
      '/builtins.html',
      `<page-img id="img" src="/img.svg" width="100" height="80" alt="teal"></page-img>
       <page-iframe id="frame" src="${server.otherOrigin}/frame.html" width="200" height="100" sandbox="allow-scripts allow-same-origin"></page-iframe>
       <page-pixel src="/pixel.gif?v=PAGE_VIEW_ID"></page-pixel>
       <page-ad id="fake" type="fake" width="300" height="250"></page-ad>
       <page-ad id="custom" type="custom" layout="fixed" width="300" height="250" data-src="${server.otherOrigin}/frame.html?gdpr=\${GDPR}&state=\${CONSENT_STATE}"></page-ad>
       <page-ad id="unknown" type="nowhere" width="300" height="250"></page-ad>`,
    );
    await page.waitForSelector('#img img');
    expect(await page.$eval('#img img', (img) => (img as HTMLImageElement).getAttribute('src'))).toBe('/img.svg');
    await page.waitForSelector('#frame iframe');
    expect(await page.$eval('#frame iframe', (f) => f.getAttribute('sandbox'))).toBe('allow-scripts allow-same-origin');
    await expect.poll(() => server.requestsTo('/pixel.gif').length).toBe(1);
    expect(server.requestsTo('/pixel.gif')[0]?.url).toMatch(/\?v=\d+$/);
    await page.waitForSelector('#fake .page-fake-ad');
    expect(await page.$eval('#fake', (el) => el.getBoundingClientRect().height)).toBe(250);
    await page.waitForSelector('#custom iframe');
    expect(await page.$eval('#custom iframe', (f) => (f as HTMLIFrameElement).src)).toMatch(/gdpr=&state=$/);
    await expect.poll(() => messages.some((m) => m.text.includes('[page-ad#unknown] unsupported-ad-type'))).toBe(true);
    expect(await page.$$eval('#unknown *', (children) => children.length)).toBe(0);
  });

  it('removes allow-same-origin from a same-origin iframe', async () => {
    const { page, messages } = await open(
      '/same-origin.html',
      '<page-iframe id="f" src="/frame.html" width="10" height="10" sandbox="allow-scripts allow-same-origin"></page-iframe>',
    );
    await page.waitForSelector('#f iframe');
    expect(await page.$eval('#f iframe', (f) => f.getAttribute('sandbox'))).toBe('allow-scripts');
    expect(messages.some((m) => m.text.startsWith('[page-iframe#f] unsafe-iframe-sandbox'))).toBe(true);
  });

  it('reports an invalid layout and does not build the element', async () => {
    const { page, messages } = await open(
      '/bad-layout.html',
      '<page-img id="bad" src="/img.svg" layout="responsive" width="10"></page-img>',
    );
    await expect.poll(() => messages.some((m) => m.text.startsWith('[page-img#bad] missing-size'))).toBe(true);
    expect(await page.$eval('#bad', (el) => el.classList.contains('page-built'))).toBe(false);
    expect(server.requestsTo('/img.svg').filter((r) => r.headers.referer?.includes('bad-layout'))).toHaveLength(0);
  });
});

describe('consent gate', () => {
  it('never requests a blocked element until the gate allows it, then builds without reload', async () => {
    const before = server.requestsTo('/pixel.gif').length;
    const { page } = await open(
      '/gated.html',
      `${TEST_GATE}<page-img id="img" data-block-on-consent src="/img.svg?blocked" width="10" height="10"></page-img>
       <page-pixel data-block-on-consent src="/pixel.gif?blocked"></page-pixel>`,
    );
    await settled(page);
    expect(server.requests.filter((r) => r.url.includes('blocked'))).toHaveLength(0);
    expect(server.requestsTo('/pixel.gif').length).toBe(before);
    expect(await page.$eval('#img', (el) => el.classList.contains('page-built'))).toBe(false);
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForSelector('#img img');
    await expect.poll(() => server.requests.filter((r) => r.url.includes('blocked')).length).toBe(2);
  });

  it('unlays a built element when the decision is withdrawn', async () => {
    const { page } = await open(
      '/withdraw.html',
      `${TEST_GATE}<page-iframe id="f" data-block-on-consent src="${server.otherOrigin}/frame.html" width="10" height="10"></page-iframe>`,
    );
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForSelector('#f iframe');
    await page.evaluate(() => (window as any).testGate.set('deny'));
    await page.waitForSelector('#f iframe', { state: 'detached' });
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForSelector('#f iframe');
  });

  it('runs a text/plain script once, when the gate opens', async () => {
    const { page } = await open(
      '/scripts.html',
      `${TEST_GATE}<script>window.runs = [];</script>
       <script type="text/plain" data-block-on-consent>window.runs.push('first')</script>
       <script type="text/plain" data-block-on-consent id="second">window.runs.push('second')</script>`,
    );
    await settled(page);
    expect(await page.evaluate(() => (window as any).runs)).toEqual([]);
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForFunction(() => (window as any).runs.length === 2);
    await page.evaluate(() => {
      (window as any).testGate.set('deny');
      (window as any).testGate.set('allow');
    });
    await settled(page);
    expect(await page.evaluate(() => (window as any).runs)).toEqual(['first', 'second']);
    expect(await page.$eval('#second', (s) => s.getAttribute('type'))).toBe('text/javascript');
  });

  it('opens the gate on a page without page-consent', async () => {
    const { page } = await open(
      '/open.html',
      '<page-img id="img" data-block-on-consent src="/img.svg?open" width="10" height="10"></page-img>',
    );
    await page.waitForSelector('#img img');
  });
});

describe('layout reservation', () => {
  it('adds its layout stylesheet with the first element laid out that needs it, once, and none to a page without elements or with only nodisplay ones', async () => {
    const layoutSheets = (page: import('playwright-core').Page) =>
      page.evaluate(
        () => [...document.querySelectorAll('style')].filter((s) => s.textContent?.includes('.page-layout-')).length,
      );
    const bare = await open('/no-elements.html', '<p>text only</p>');
    await bare.page.waitForFunction(() => 'PAGE_RUNTIME' in self);
    await settled(bare.page);
    expect(await layoutSheets(bare.page)).toBe(0);
    // A nodisplay element is hidden inline: no stylesheet for it.
    const hidden = await open(
      '/nodisplay-only.html',
      '<page-geo id="geo" layout="nodisplay"><script type="application/json">{"ISOCountryGroups":{"eea":["de"]}}</script></page-geo>',
      '<script async custom-element="page-geo" src="/v0/page-geo-0.1.js"></script>',
    );
    await hidden.page.waitForSelector('#geo.page-built', { state: 'attached' });
    expect(await layoutSheets(hidden.page)).toBe(0);
    expect(await hidden.page.$eval('#geo', (el) => getComputedStyle(el).display)).toBe('none');
    const { page } = await open(
      '/two-elements.html',
      `<page-ad id="a" type="fake" layout="fixed" width="120" height="60"></page-ad>
       <page-ad id="r" type="fake" layout="responsive" width="16" height="9"></page-ad>`,
    );
    await page.waitForSelector('#a .page-fake-ad');
    expect(await layoutSheets(page)).toBe(1);
    expect(await page.$eval('#a', (el) => getComputedStyle(el).display)).toBe('inline-block');
    expect(await page.$eval('#r', (el) => getComputedStyle(el).width)).toBe(
      await page.$eval('body', (el) => getComputedStyle(el).width),
    );
  });

  it('causes no layout shift when a sized element builds', async () => {
    const { page } = await open(
      '/shift.html',
      `${TEST_GATE}<p>above</p>
       <page-img id="img" data-block-on-consent src="/img.svg?shift" layout="responsive" width="16" height="9"></page-img>
       <page-ad id="ad" data-block-on-consent type="fake" layout="fixed-height" height="90"></page-ad>
       <p id="below">below</p>`,
    );
    // Let the frame that shows the upgraded (reserved) boxes render first: the shift measured is
    // the one of building, not of v0.js arriving after the first paint.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.evaluate(() => {
      (window as any).shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          (window as any).shifts += (entry as any).value;
          (window as any).shiftSources = ((window as any).shiftSources ?? []).concat(
            (entry as any).sources.map(
              (source: any) =>
                `${source.node?.nodeName}#${source.node?.id} ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)}`,
            ),
          );
        }
      }).observe({ type: 'layout-shift' });
    });
    const before = await page.$eval('#below', (el) => el.getBoundingClientRect().top);
    await page.evaluate(() => (window as any).testGate.set('allow'));
    await page.waitForSelector('#img img');
    await page.waitForSelector('#ad .page-fake-ad');
    await settled(page);
    expect(await page.$eval('#below', (el) => el.getBoundingClientRect().top)).toBe(before);
    expect(
      await page.evaluate(() => (window as any).shifts),
      await page.evaluate(() => (window as any).shiftSources?.join('; ') ?? ''),
    ).toBe(0);
  });
});

describe('change-size arbiter', () => {
  it('refuses growth inside the viewport and applies it below', async () => {
    const { page } = await open(
      '/arbiter.html',
      `<div id="top" style="height:100px;background:#eee"></div>
       <div style="height:3000px"></div>
       <div id="bottom" style="height:100px"></div>
       <script>
         (self.PAGE = self.PAGE || []).push(async (page) => {
           const attempt = (id) => page.attemptChangeSize(document.getElementById(id), 400).then(() => 'applied', () => 'refused');
           window.results = { top: await attempt('top'), bottom: await attempt('bottom') };
         });
       </script>`,
    );
    await page.waitForFunction(() => (window as any).results);
    expect(await page.evaluate(() => (window as any).results)).toEqual({ top: 'refused', bottom: 'applied' });
    expect(await page.$eval('#top', (el) => el.getBoundingClientRect().height)).toBe(100);
    expect(await page.$eval('#bottom', (el) => el.getBoundingClientRect().height)).toBe(400);
  });
});

describe('actions and failures', () => {
  it('fires actions on click and on Enter and Space of a role=button element', async () => {
    const { page } = await open(
      '/actions.html',
      `${DEFINE_TEST_ELEMENTS}<test-counter id="counter"></test-counter>
       <button id="click" on="tap:counter.add(n=1)">add</button>
       <div id="key" role="button" tabindex="0" on="tap:counter.add(n=10)">add ten</div>
       <div id="plain" tabindex="0" on="tap:counter.add(n=100)">not a button</div>`,
    );
    await page.waitForFunction(() => document.getElementById('counter')?.textContent === '0');
    await page.click('#click');
    await page.focus('#key');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Space');
    await page.focus('#plain');
    await page.keyboard.press('Enter');
    expect(await page.$eval('#counter', (el) => el.textContent)).toBe('21');
  });

  it('reports an unknown action target without throwing', async () => {
    const { page, messages, errors } = await open('/unknown.html', '<button id="b" on="tap:nobody.go">go</button>');
    await page.waitForFunction(() => (self as any).PAGE_RUNTIME);
    await page.click('#b');
    await expect.poll(() => messages.some((m) => m.text.includes('unknown-action-target'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('keeps building siblings when one element fails', async () => {
    const { page, messages } = await open(
      '/failure.html',
      `${DEFINE_TEST_ELEMENTS}<test-broken id="broken"></test-broken><test-ok id="ok"></test-ok>`,
    );
    await page.waitForFunction(() => document.getElementById('ok')?.textContent === 'built');
    expect(messages.some((m) => m.text.startsWith('[test-broken#broken] build-failed'))).toBe(true);
    expect(await page.$eval('#broken', (el) => el.classList.contains('page-error'))).toBe(true);
  });

  it('runs extension callbacks queued before and after v0.js', async () => {
    const { page } = await open(
      '/queue.html',
      `<script>(self.PAGE = self.PAGE || []).push((page) => { window.early = page.version; });</script>`,
    );
    await page.waitForFunction(() => (window as any).early === '0.1');
    expect(
      await page.evaluate(() => new Promise((resolve) => (self as any).PAGE.push((p: any) => resolve(p.version)))),
    ).toBe('0.1');
  });
});

describe('runtime diagnostics', () => {
  it('reports each publisher mistake with its code and keeps the page working', async () => {
    const { page, messages, errors } = await open(
      '/mistakes.html',
      `<page-img id="container-img" src="/img.svg" layout="container"></page-img>
       <page-pixel id="no-src"></page-pixel>
       <test-layout-fails id="lf" layout="fixed" width="10" height="10"></test-layout-fails>
       <script>
         (self.PAGE = self.PAGE || []).push((page) => {
           page.define('test-layout-fails', class extends page.PageElement {
             layoutCallback() { throw new Error('no layout'); }
             unlayoutCallback() { throw new Error('no unlayout'); }
           });
           page.define('page-img', class extends page.PageElement {});
         });
         (self.PAGE = self.PAGE || []).push(() => { throw new Error('bad extension'); });
       </script>`,
    );
    const codes = [
      '[page-img#container-img] unsupported-layout',
      '[page-pixel#no-src] missing-attribute',
      '[test-layout-fails#lf] layout-failed',
      'duplicate-definition',
      '[page-runtime] extension-failed',
    ];
    for (const code of codes)
      await expect.poll(() => messages.some((m) => m.text.includes(code)), { message: code }).toBe(true);
    await page.evaluate(() => document.getElementById('lf')?.remove());
    await expect.poll(() => messages.some((m) => m.text.includes('[test-layout-fails#lf] unlayout-failed'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
