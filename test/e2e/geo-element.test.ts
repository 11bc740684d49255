import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, html, launchBrowser, newPage, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

const GEO = { ISOCountryGroups: { eea: ['preset-eea'], california: ['preset-us-ca'], nowhere: ['unknown'] } };
const GEO_SCRIPT = readFileSync(join(CDN_ROOT, 'v0/page-geo-0.1.js'), 'utf8');

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/patched/page-geo-0.1.js': {
      body: GEO_SCRIPT.replace('{{PAGE_GEO_COUNTRY}}', 'de'),
      headers: { 'content-type': 'text/javascript' },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The geo page; `src` replaces the script URL of page-geo. */
function geoPage(attributes = '', src = '/v0/page-geo-0.1.js', config: object = GEO) {
  return html(
    `<page-geo layout="nodisplay" ${attributes}><script type="application/json">${JSON.stringify(config)}</script></page-geo>
    <script>(self.PAGE = self.PAGE || []).push((page) => page.whenService('geo').then((geo) => (window.geo = geo)));</script>`,
    { head: `<script async custom-element="page-geo" src="${src}"></script>` },
  );
}

let count = 0;
async function open(markup: string, hash = '') {
  const path = `/geo-${++count}.html`;
  server.page(path, markup);
  const test = await newPage(browser);
  await test.page.goto(server.origin + path + hash);
  await test.page.waitForFunction(() => (window as unknown as { geo?: unknown }).geo);
  const result = await test.page.evaluate(() => ({
    geo: (window as unknown as { geo: unknown }).geo,
    classes: [...document.documentElement.classList]
      .filter((name) => name.startsWith('page-iso') || name.startsWith('page-geo'))
      .sort(),
  }));
  return { ...test, ...result };
}

describe('page-geo', () => {
  it('is unknown with the unpatched script, and matches the groups listing unknown', async () => {
    const { geo, classes } = await open(geoPage());
    expect(geo).toEqual({ country: 'unknown', subdivision: 'unknown', matchedGroups: ['nowhere'] });
    expect(classes).toEqual(['page-geo-group-nowhere', 'page-iso-country-unknown']);
  });

  it('contains the placeholder exactly once inside a string literal', () => {
    expect(GEO_SCRIPT.split('{{PAGE_GEO_COUNTRY}}')).toHaveLength(2);
    expect(GEO_SCRIPT).toMatch(/["'`]\{\{PAGE_GEO_COUNTRY\}\}["'`]/);
  });

  it('reads the country patched in by the server', async () => {
    const { geo, classes } = await open(geoPage('', '/patched/page-geo-0.1.js'));
    expect(geo).toEqual({ country: 'de', subdivision: 'unknown', matchedGroups: ['eea'] });
    expect(classes).toEqual(['page-geo-group-eea', 'page-iso-country-de']);
  });

  it('honours the debug hash on a loopback host, over the patched country', async () => {
    const { geo, classes } = await open(geoPage('', '/patched/page-geo-0.1.js'), '#page-geo=us');
    expect(geo).toEqual({ country: 'us', subdivision: 'unknown', matchedGroups: ['california'] });
    expect(classes).toEqual(['page-geo-group-california', 'page-iso-country-us']);
  });
});
