/**
 * The URL rule (docs/runtime.md, "The URL rule") in Chromium: built-in elements and blocked scripts load only http(s)
 * URLs; iframes keep allow-same-origin only when they are http(s) and cross-origin.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleLine, html, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

/** Runs before v0.js: records every Image the page creates, and whether any payload ran. */
const PROBE = `<script>
  window.__ran = [];
  window.__images = [];
  const NativeImage = window.Image;
  window.Image = function () { const image = new NativeImage(); window.__images.push(image); return image; };
</script>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ '/frame.html': { body: '<p>frame</p>' }, '/pixel.gif': { body: 'GIF89a' } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, body: string) {
  server.page(path, html(body, { head: PROBE }));
  const test = await newPage(browser);
  await test.page.goto(server.origin + path);
  await test.page.waitForFunction(() => document.querySelectorAll('.page-built').length > 0);
  return test;
}

const refusals = (messages: ConsoleLine[]) =>
  messages.filter((m) => m.text.includes(' url-refused: ')).map((m) => m.text);

describe('URL rule', () => {
  it('loads nothing for javascript: and data: URLs and logs url-refused', async () => {
    const { page, messages, errors } = await open(
      '/refused.html',
      `<page-img id="img" src="javascript:window.top.__ran.push('img')" width="10" height="10"></page-img>
       <page-img id="set" src="/frame.html" srcset="/a.png 1x, data:image/svg+xml,<svg/> 2x" width="10" height="10"></page-img>
       <page-pixel id="pixel" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></page-pixel>
       <page-iframe id="frame" src="javascript:window.top.__ran.push('frame')" width="10" height="10" sandbox="allow-scripts allow-same-origin"></page-iframe>
       <page-iframe id="data" src="data:text/html,<script>parent.__ran.push('data')</script>" width="10" height="10" sandbox="allow-scripts"></page-iframe>
       <page-ad id="ad" type="custom" data-src=" JaVaScRiPt:window.top.__ran.push('ad')" width="10" height="10"></page-ad>`,
    );
    await expect.poll(() => refusals(messages).length).toBe(6);
    expect(refusals(messages).sort()).toEqual([
      '[page-ad#ad] url-refused: expected an http(s) or relative URL, got " JaVaScRiPt:window.top.__ran.push(\'ad\')"',
      '[page-iframe#data] url-refused: expected an http(s) or relative URL, got "data:text/html,<script>parent.__ran.push(\'data\')</script>"',
      '[page-iframe#frame] url-refused: expected an http(s) or relative URL, got "javascript:window.top.__ran.push(\'frame\')"',
      '[page-img#img] url-refused: expected an http(s) or relative URL, got "javascript:window.top.__ran.push(\'img\')"',
      '[page-img#set] url-refused: expected an http(s) or relative URL, got "data:image/svg+xml"',
      '[page-pixel#pixel] url-refused: expected an http(s) or relative URL, got "data:image/gif;base64,R0lGODlhAQABAAAAACw="',
    ]);
    await settled(page);
    expect(await page.$$('page-img img, page-iframe iframe, page-ad iframe')).toHaveLength(0);
    expect(
      await page.evaluate(() =>
        (window as unknown as { __images: HTMLImageElement[] }).__images.map((image) => image.src),
      ),
    ).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('still loads http(s) and relative URLs', async () => {
    const { page, messages } = await open(
      '/loaded.html',
      `<page-img id="img" src="/frame.html" srcset="/frame.html?2x 2x" width="10" height="10"></page-img>
       <page-pixel id="pixel" src="/pixel.gif?ok"></page-pixel>`,
    );
    await page.waitForSelector('#img img');
    await expect.poll(() => server.requestsTo('/pixel.gif').some((r) => r.url === '/pixel.gif?ok')).toBe(true);
    expect(refusals(messages)).toEqual([]);
  });

  it('keeps allow-same-origin for an http(s) cross-origin frame only', async () => {
    const sandbox = 'allow-scripts allow-same-origin';
    const { page } = await open(
      '/sandbox.html',
      `<page-iframe id="cross" src="${server.otherOrigin}/frame.html" width="10" height="10" sandbox="${sandbox}"></page-iframe>
       <page-iframe id="same" src="/frame.html" width="10" height="10" sandbox="${sandbox}"></page-iframe>
       <page-iframe id="data" src="data:text/html,x" width="10" height="10" sandbox="${sandbox}"></page-iframe>`,
    );
    await page.waitForSelector('#cross iframe');
    await page.waitForSelector('#same iframe');
    expect(await page.$eval('#cross iframe', (frame) => frame.getAttribute('sandbox'))).toBe(sandbox);
    expect(await page.$eval('#same iframe', (frame) => frame.getAttribute('sandbox'))).toBe('allow-scripts');
    expect(await page.$$('#data iframe')).toHaveLength(0);
  });

  it('never runs a blocked script whose src is not http(s), and runs the others', async () => {
    const { page, messages } = await open(
      '/scripts.html',
      `<page-img src="/frame.html" width="1" height="1"></page-img>
       <script type="text/plain" data-block-on-consent id="data-script" src="data:text/javascript,window.__ran.push('data')"></script>
       <script type="text/plain" data-block-on-consent>window.__ran.push('inline')</script>`,
    );
    await expect.poll(() => page.evaluate(() => (window as unknown as { __ran: string[] }).__ran)).toEqual(['inline']);
    expect(refusals(messages)).toEqual([
      '[script#data-script] url-refused: expected an http(s) or relative URL, got "data:text/javascript,window.__ran.push(\'data\')"',
    ]);
    expect(await page.$('script[type="text/plain"]#data-script')).not.toBeNull();
  });
});
