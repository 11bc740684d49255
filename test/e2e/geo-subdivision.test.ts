/**
 * The reader's state in Chromium: the reference server, behind a trusted proxy (TRUST_PROXY), reads
 * the Cloudflare country and region headers and patches the place into `page-geo-0.1.js`;
 * `<page-geo>` marks `<html>` with the subdivision and matches the state presets. The proxy is
 * played by the browser context, which adds the CDN's headers to every request it sends.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { type GeoReference, startGeoReference } from './reference-geo.ts';

let browser: Browser;
let server: TestServer;
let reference: GeoReference;
let referenceOrigin = '';

const GEO = { ISOCountryGroups: { california: ['preset-us-ca'], privacy: ['preset-us-privacy-states'], us: ['us'] } };

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  // The environment of a server behind Cloudflare, the proxy on the loopback interface.
  reference = await startGeoReference();
  referenceOrigin = reference.origin;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await reference?.close();
});

let count = 0;
/** A page whose `<page-geo>` script comes from the reference server, opened by a reader the CDN places with `headers`. */
async function open(headers: Record<string, string>, hash = '') {
  const path = `/state-${++count}.html`;
  server.page(
    path,
    html(
      `<page-geo id="geo" layout="nodisplay"><script type="application/json">${JSON.stringify(GEO)}</script></page-geo>
      <script>(self.PAGE = self.PAGE || []).push((page) => page.whenService('geo').then((geo) => (window.geo = geo)));</script>`,
      { head: `<script async custom-element="page-geo" src="${referenceOrigin}/v0/page-geo-0.1.js"></script>` },
    ),
  );
  const test = await newPage(browser, { extraHTTPHeaders: headers });
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

describe('page-geo with the state from the CDN headers, through the reference server', () => {
  it('gives a California reader page-iso-subdivision-us-ca and preset-us-ca', async () => {
    const { geo, classes, errors } = await open({ 'cf-ipcountry': 'US', 'cf-region-code': 'CA' });
    expect(geo).toEqual({ country: 'us', subdivision: 'us-ca', matchedGroups: ['california', 'privacy', 'us'] });
    expect(classes).toEqual([
      'page-geo-group-california',
      'page-geo-group-privacy',
      'page-geo-group-us',
      'page-iso-country-us',
      'page-iso-subdivision-us-ca',
    ]);
    expect(errors).toEqual([]);
  });

  it('keeps a Texas reader out of preset-us-ca', async () => {
    const { geo, classes } = await open({ 'cf-ipcountry': 'US', 'cf-region-code': 'TX' });
    expect(geo).toEqual({ country: 'us', subdivision: 'us-tx', matchedGroups: ['privacy', 'us'] });
    expect(classes).toContain('page-iso-subdivision-us-tx');
    expect(classes).not.toContain('page-geo-group-california');
  });

  it('honours the debug hash #page-geo=us-ca on a loopback host, over the state the server patched', async () => {
    const { geo, classes } = await open({ 'cf-ipcountry': 'US', 'cf-region-code': 'TX' }, '#page-geo=us-ca');
    expect(geo).toEqual({ country: 'us', subdivision: 'us-ca', matchedGroups: ['california', 'privacy', 'us'] });
    expect(classes).toContain('page-iso-subdivision-us-ca');
    expect(classes).not.toContain('page-iso-subdivision-us-tx');
  });

  it('reports an unknown state in the debug hash once, and treats the reader as of unknown state (strictest: every state group)', async () => {
    const { geo, classes, messages } = await open({ 'cf-ipcountry': 'US', 'cf-region-code': 'TX' }, '#page-geo=us-zz');
    expect(geo).toEqual({ country: 'us', subdivision: 'unknown', matchedGroups: ['california', 'privacy', 'us'] });
    expect(classes.filter((name) => name.startsWith('page-iso-subdivision'))).toEqual([]);
    const reported = messages.filter((m) => m.text.includes('geo-subdivision-invalid'));
    expect(reported.map((m) => m.text)).toEqual([
      '[page-geo#geo] geo-subdivision-invalid: expected a state or area of us (us-ca), got "us-zz"',
    ]);
  });

  it('knows only the country when the CDN sends no region', async () => {
    const { geo, classes } = await open({ 'cf-ipcountry': 'DE' });
    expect(geo).toEqual({ country: 'de', subdivision: 'unknown', matchedGroups: [] });
    expect(classes).toEqual(['page-geo-no-group', 'page-iso-country-de']);
  });
});
