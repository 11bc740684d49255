/**
 * Black-box acceptance scenarios for <page-auto-ads> and the runtime's public contract, written
 * from docs/architecture.md, docs/runtime.md, docs/auto-ads.md and the README (including "What users can expect") only.
 * Every ad is `type="fake"` so nothing is requested for creatives.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCROLL_IDLE_MS } from '../../src/runtime/viewport.ts';
import {
  html,
  launchBrowser,
  newPage,
  settled,
  startServer,
  type ConsoleLine,
  type TestPage,
  type TestServer,
} from './harness.ts';

// 580 px high: every candidate position in these pages is a multiple of 100 px, so none falls in
// the bottom 10 % of the viewport (522-580 px) where the change-size arbiter may still allow growth.
const VIEWPORT = { width: 800, height: 580 };
const STYLE = `<style>
  body { margin: 0; font: 16px/20px sans-serif; }
  p { margin: 0; height: 100px; overflow: hidden; }
  p.tall { height: 300px; }
  h2 { margin: 0; height: 100px; overflow: hidden; }
  /* The publisher reserves manual slots before v0.js arrives (the runtime cannot before it loads). */
  page-ad.manual { display: block; height: 50px; }
</style>`;
const TEXT = 'The quick brown fox jumps over the lazy dog while the reporters take notes about it. '.repeat(3);
const FAKE = { type: 'fake' };
const POLL = { timeout: 20_000, interval: 100 };

// Records `ads-placed` events (as seen on document, so they must bubble), layout shifts and the last scroll.
const RECORDER = `
  window.__placed = [];
  window.__shifts = [];
  window.__scrolledAt = 0;
  addEventListener('scroll', () => { window.__scrolledAt = performance.now(); }, { capture: true, passive: true });
  document.addEventListener('ads-placed', (event) => {
    window.__placed.push({ detail: event.detail, target: event.target.tagName, bubbles: event.bubbles });
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__shifts.push({ value: entry.value, sources: (entry.sources || []).map((s) => s.node ? s.node.nodeName + '#' + (s.node.id || '') : '?') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

let browser: Browser;
let server: TestServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/frame.html': { body: '<p>frame</p>' },
    '/img.svg': {
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      headers: { 'content-type': 'image/svg+xml' },
    },
  });
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Placed = { detail: { adsPlaced: number; totalAdsOnPage: number }; target: string; bubbles: boolean };
type Ad = {
  top: number;
  bottom: number;
  height: number;
  manual: boolean;
  previous: string;
  parent: string;
  position: string;
};

function paragraphs(count: number, className = ''): string {
  const attribute = className ? ` class="${className}"` : '';
  return Array.from({ length: count }, (_, i) => `<p id="p${i}"${attribute}>${i}. ${TEXT}</p>`).join('\n');
}

function placement(anchor: object, pos = 4, extra: object = {}): object {
  return { anchor, pos, type: 1, ...extra };
}

/** A page whose first body child is `<page-auto-ads>` fetching `configPath`. */
function autoAdsPage(
  configPath: string,
  body: string,
  options: { attributes?: string; extensions?: string[]; before?: string; head?: string } = {},
): string {
  const element = `<page-auto-ads type="custom" data-config-url="${configPath}"${options.attributes ?? ''}></page-auto-ads>`;
  return html(`${options.before ?? ''}${element}${body}`, {
    head: STYLE + (options.head ?? ''),
    extensions: options.extensions ?? ['page-auto-ads'],
  });
}

async function open(name: string, markup: string, viewport = VIEWPORT, cookies = false): Promise<TestPage> {
  const path = `/${name}.html`;
  server.page(path, markup);
  const test = await newPage(browser, { viewport });
  contexts.push(test.context);
  if (cookies) await test.context.addCookies([{ name: 'session', value: 'secret', url: server.origin }]);
  await test.page.addInitScript(RECORDER);
  await test.page.goto(server.origin + path);
  return test;
}

/** Serves `config` at a fresh path for one scenario. */
function config(name: string, body: object): string {
  const path = `/config-${name}.json`;
  server.route(path, { body });
  return path;
}

async function placedEvents(page: Page): Promise<Placed[]> {
  return page.evaluate(() => (window as unknown as { __placed: Placed[] }).__placed);
}

async function waitForPlacement(page: Page): Promise<Placed> {
  await expect.poll(async () => (await placedEvents(page)).length, POLL).toBeGreaterThan(0);
  return (await placedEvents(page))[0]!;
}

/**
 * Settled after a scroll: the runtime defers layout changes until scrolling has been idle for
 * SCROLL_IDLE_MS, so the page time first passes that point, then the page settles.
 */
async function settledAfterScroll(page: Page): Promise<void> {
  await page.evaluate(
    (idleMs) =>
      new Promise<void>((resolve) => {
        const check = () => {
          const left = (window as unknown as { __scrolledAt: number }).__scrolledAt + idleMs - performance.now();
          left <= 0 ? resolve() : setTimeout(check, left);
        };
        check();
      }),
    SCROLL_IDLE_MS + 50,
  );
  await settled(page);
}

async function layoutShift(page: Page): Promise<{ value: number; sources: string[] }[]> {
  return page.evaluate(() => (window as unknown as { __shifts: { value: number; sources: string[] }[] }).__shifts);
}

async function measureAds(page: Page): Promise<Ad[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('page-ad')].map((element) => {
      const rect = element.getBoundingClientRect();
      return {
        top: Math.round((rect.top + scrollY) * 100) / 100,
        bottom: Math.round((rect.bottom + scrollY) * 100) / 100,
        height: rect.height,
        manual: element.classList.contains('manual'),
        previous: element.previousElementSibling?.id ?? '',
        parent: element.parentElement?.id ?? '',
        position: getComputedStyle(element).position,
      };
    }),
  );
}

function autoAds(ads: Ad[]): Ad[] {
  return ads.filter((ad) => !ad.manual).sort((a, b) => a.top - b.top);
}

/** Gaps between vertically adjacent ads, top to bottom. */
function gaps(ads: Ad[]): number[] {
  const sorted = [...ads].sort((a, b) => a.top - b.top);
  return sorted.slice(1).map((ad, i) => Math.round((ad.top - sorted[i]!.bottom) * 100) / 100);
}

function diagnostics(messages: ConsoleLine[], source = 'page-auto-ads'): string[] {
  return messages
    .filter((m) => (m.type === 'error' || m.type === 'warning') && m.text.startsWith(`[${source}`))
    .map((m) => m.text);
}

/** Requests other than the page itself, the CDN bundles and the browser's own favicon request. */
function otherRequests(since: number, pagePath: string): string[] {
  return server.requests
    .filter(
      (r) =>
        r.time >= since &&
        r.path !== pagePath &&
        r.path !== '/v0.js' &&
        !r.path.startsWith('/v0/') &&
        r.path !== '/favicon.ico',
    )
    .map((r) => r.url);
}

const CONSENT = `<page-consent id="consent" layout="nodisplay"><script type="application/json">
  {"consentInstanceId": "acceptance-ads", "consentRequired": true, "promptUI": "prompt"}
</script><div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button>
<button id="reject" on="tap:consent.reject">Reject</button></div></page-consent>`;

describe('page-auto-ads acceptance: insertion', () => {
  it('inserts a page-ad with merged attributes, margins and no disallowed attributes', async () => {
    const path = config('attributes', {
      placements: [
        placement({ selector: '#target' }, 4, {
          style: { top_m: 12, bot_m: 34 },
          attributes: { 'data-slot': 'placement', 'data-extra': 7, onclick: 'window.__hacked = 1' },
        }),
      ],
      attributes: { type: 'fake', 'data-slot': 'config', 'data-network': 'n1', src: '/evil' },
      adConstraints: { initialMinSpacing: '0px', maxAdCount: 5 },
    });
    const body = `<div style="height:1000px"></div><p id="target">${TEXT}</p>${paragraphs(20)}`;
    const { page, messages } = await open('attributes', autoAdsPage(path, body));
    const placed = await waitForPlacement(page);
    expect(placed.detail).toEqual({ adsPlaced: 1, totalAdsOnPage: 1 });
    const ad = await page.evaluate(() => {
      const element = document.querySelector('page-ad')!;
      const style = getComputedStyle(element);
      const target = document.getElementById('target')!.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      const next = element.nextElementSibling!.getBoundingClientRect();
      return {
        previous: element.previousElementSibling?.id,
        attributes: Object.fromEntries(
          [...element.attributes].filter((a) => a.name !== 'style' && a.name !== 'class').map((a) => [a.name, a.value]),
        ),
        marginTop: style.marginTop,
        marginBottom: style.marginBottom,
        gapAbove: box.top - target.bottom,
        gapBelow: next.top - box.bottom,
        height: box.height,
      };
    });
    expect(ad.previous).toBe('target');
    expect(ad.attributes).toMatchObject({
      type: 'fake',
      'data-slot': 'placement',
      'data-network': 'n1',
      'data-extra': '7',
    });
    expect(ad.attributes).not.toHaveProperty('onclick');
    expect(ad.attributes).not.toHaveProperty('src');
    expect(ad.height).toBeGreaterThan(0);
    expect([ad.marginTop, ad.marginBottom]).toEqual(['12px', '34px']);
    expect([ad.gapAbove, ad.gapBelow]).toEqual([12, 34]);
    const lines = diagnostics(messages);
    expect(lines.some((line) => line.includes('onclick'))).toBe(true);
    expect(lines.some((line) => line.includes('src'))).toBe(true);
    await page.click('page-ad', { force: true }).catch(() => {});
    expect(await page.evaluate(() => (window as unknown as { __hacked?: number }).__hacked)).toBeUndefined();
  });

  it('places BEFORE, FIRST_CHILD, LAST_CHILD and AFTER the anchor', async () => {
    const path = config('positions', {
      placements: [
        placement({ selector: '#a1' }, 1),
        placement({ selector: '#a2' }, 2),
        placement({ selector: '#a3' }, 3),
        placement({ selector: '#a4' }, 4),
      ],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '0px', maxAdCount: 10 },
    });
    const block = (id: string) =>
      `<div id="${id}"><p id="${id}-first">${TEXT}</p><p id="${id}-last">${TEXT}</p></div>${paragraphs(5)}`;
    const body = `<div style="height:1000px"></div>${block('a1')}${block('a2')}${block('a3')}${block('a4')}`;
    const { page } = await open('positions', autoAdsPage(path, body));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 4, totalAdsOnPage: 4 });
    const where = await page.evaluate(() => {
      const tag = (element: Element | null | undefined) => element?.tagName.toLowerCase() ?? null;
      const anchor = (id: string) => document.getElementById(id)!;
      return {
        before: tag(anchor('a1').previousElementSibling),
        firstChild: tag(anchor('a2').firstElementChild),
        lastChild: tag(anchor('a3').lastElementChild),
        after: tag(anchor('a4').nextElementSibling),
        count: document.querySelectorAll('page-ad').length,
      };
    });
    expect(where).toEqual({
      before: 'page-ad',
      firstChild: 'page-ad',
      lastChild: 'page-ad',
      after: 'page-ad',
      count: 4,
    });
  });

  it('resolves anchors by selector, index, all, min_c and sub', async () => {
    const short = 'Short.';
    const path = config('anchors', {
      placements: [
        // Second section, then every paragraph in it with at least 40 characters.
        placement({ selector: 'section', index: 1, sub: { selector: 'p', all: true, min_c: 40 } }, 4),
        // index wins over all: only the third h2.
        placement({ selector: 'h2', index: 2, all: true }, 1),
        // min_c filters before index: the first long p.m, not the first p.m.
        placement({ selector: 'p.m', min_c: 40, index: 0 }, 4),
      ],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '0px', maxAdCount: 20 },
    });
    const body = `<div style="height:1000px"></div>
      <section id="s0"><p id="s0a">${TEXT}</p><p id="s0b">${TEXT}</p></section>
      <section id="s1"><p id="s1a">${TEXT}</p><p id="s1b">${short}</p><p id="s1c">${TEXT}</p></section>
      <h2 id="h0">One</h2><p>${TEXT}</p><h2 id="h1">Two</h2><p>${TEXT}</p><h2 id="h2">Three</h2><p>${TEXT}</p>
      <p class="m" id="m0">${short}</p><p class="m" id="m1">${TEXT}</p><p class="m" id="m2">${TEXT}</p>
      ${paragraphs(10)}`;
    const { page } = await open('anchors', autoAdsPage(path, body));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 4, totalAdsOnPage: 4 });
    const neighbours = await page.evaluate(() =>
      [...document.querySelectorAll('page-ad')].map(
        (ad) => `${ad.previousElementSibling?.id || '-'}|${ad.nextElementSibling?.id || '-'}`,
      ),
    );
    // After s1a and s1c (s1b is too short), before the third h2, after m1 (m0 is too short).
    expect(neighbours.sort()).toEqual(['-|h2', 'm1|m2', 's1a|s1b', 's1c|-']);
  });
});

describe('page-auto-ads acceptance: spacing and count', () => {
  it('follows the worked example of docs/auto-ads.md, "Config format": two manual ads, rules for 3 and 5 ads', async () => {
    const path = config('worked-example', {
      placements: [placement({ selector: 'p', all: true }, 4)],
      attributes: FAKE,
      adConstraints: {
        initialMinSpacing: '100px',
        subsequentMinSpacing: [
          { adCount: 5, spacing: '500px' },
          { adCount: 3, spacing: '300px' },
        ],
        maxAdCount: 7,
      },
    });
    const manual = '<page-ad class="manual" type="fake" layout="fixed-height" height="50"></page-ad>';
    // manual ad 0-50, three paragraphs, manual ad 350-400, paragraphs from 400 px.
    const body = `${manual}${paragraphs(3)}${manual}<div id="article">${paragraphs(40)}</div>`;
    const { page } = await open('worked-example', autoAdsPage(path, body));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 5, totalAdsOnPage: 7 });
    const all = await measureAds(page);
    const manualAds = all.filter((ad) => ad.manual);
    expect(manualAds.map((ad) => [ad.top, ad.bottom])).toEqual([
      [0, 50],
      [350, 400],
    ]);
    const ads = autoAds(all);
    // First insertion with 2 ads on the page: initialMinSpacing (100 px), so the first candidate
    // below the viewport (600 px, 200 px from the second manual ad) is taken.
    expect(ads[0]!.top).toBe(600);
    // 3 and 4 ads on the page: 300 px; 5 and 6 ads: 500 px.
    expect(gaps(ads)).toEqual([300, 300, 500, 500]);
    expect(await layoutShift(page)).toEqual([]);
  });

  it('reports zero ads placed when manual ads already reach maxAdCount', async () => {
    const path = config('max-reached', {
      placements: [placement({ selector: '#article p', all: true }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '100px', maxAdCount: 2 },
    });
    const manual = '<page-ad class="manual" type="fake" layout="fixed-height" height="50"></page-ad>';
    const { page } = await open(
      'max-reached',
      autoAdsPage(path, `${manual}${manual}<div id="article">${paragraphs(40)}</div>`),
    );
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 0, totalAdsOnPage: 2 });
    expect(await measureAds(page)).toHaveLength(2);
  });

  it('tries placements in config order before document order', async () => {
    const path = config('config-order', {
      placements: [placement({ selector: '#p30' }, 4), placement({ selector: '#p10' }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '100px', maxAdCount: 1 },
    });
    const { page } = await open('config-order', autoAdsPage(path, `<div id="article">${paragraphs(40)}</div>`));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 1, totalAdsOnPage: 1 });
    expect((await measureAds(page)).map((ad) => ad.previous)).toEqual(['p30']);
  });

  it('skips anchors inside fixed-position containers', async () => {
    const path = config('fixed-container', {
      placements: [placement({ selector: '.candidate', all: true }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '0px', maxAdCount: 5 },
    });
    const body = `<div style="position:fixed;top:0;left:0;width:200px;height:100px;overflow:auto">
        <p class="candidate" id="in-fixed">${TEXT}</p></div>
      <div id="article">${paragraphs(10)}<p class="candidate" id="in-flow">${TEXT}</p>${paragraphs(10)}</div>`;
    const { page } = await open('fixed-container', autoAdsPage(path, body));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 1, totalAdsOnPage: 1 });
    expect((await measureAds(page)).map((ad) => ad.previous)).toEqual(['in-flow']);
  });

  it('counts manual ads toward maxAdCount and reports ads-placed as a bubbling event', async () => {
    const path = config('max-count', {
      placements: [placement({ selector: '#article p', all: true }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '100px', maxAdCount: 5 },
    });
    const manual = '<page-ad class="manual" type="fake" layout="fixed" width="300" height="50"></page-ad>';
    const body = `<div>${manual}${manual}${manual}</div><div id="article">${paragraphs(40)}</div>`;
    const { page, messages } = await open('max-count', autoAdsPage(path, body));
    const placed = await waitForPlacement(page);
    expect(placed).toEqual({ detail: { adsPlaced: 2, totalAdsOnPage: 5 }, target: 'PAGE-AUTO-ADS', bubbles: true });
    await settled(page);
    const ads = await measureAds(page);
    expect(ads).toHaveLength(5);
    expect(autoAds(ads)).toHaveLength(2);
    expect(diagnostics(messages)).toEqual([]);
  });

  it('applies vp units as multiples of the viewport height', async () => {
    const path = config('vp-units', {
      placements: [placement({ selector: 'p', all: true }, 4)],
      attributes: FAKE,
      adConstraints: {
        initialMinSpacing: '0.5vp',
        subsequentMinSpacing: [{ adCount: 2, spacing: '1.5vp' }],
        maxAdCount: 4,
      },
    });
    const { page } = await open('vp-units', autoAdsPage(path, `<div id="article">${paragraphs(60)}</div>`));
    expect((await waitForPlacement(page)).detail).toEqual({ adsPlaced: 4, totalAdsOnPage: 4 });
    // 0.5vp = 290 -> 300 px; 1.5vp = 870 -> 900 px.
    expect(gaps(autoAds(await measureAds(page)))).toEqual([300, 900, 900]);
  });
});

describe('page-auto-ads acceptance: viewport and layout shift', () => {
  it('places no ad with a height inside the visible viewport and shifts nothing', async () => {
    const path = config('viewport', {
      placements: [
        placement({ selector: '#article h2', all: true }, 1),
        placement({ selector: '#article p', all: true }, 4),
      ],
      attributes: FAKE,
    });
    const article = Array.from({ length: 20 }, (_, i) => `<h2 id="h${i}">Heading ${i}</h2>${paragraphs(4)}`).join('');
    const { page } = await open('viewport', autoAdsPage(path, `<div id="article">${article}</div>`));
    const placed = await waitForPlacement(page);
    await settled(page);
    const ads = await measureAds(page);
    expect(ads.length).toBeGreaterThan(0);
    expect(placed.detail).toEqual({ adsPlaced: ads.length, totalAdsOnPage: ads.length });
    for (const ad of ads) if (ad.height > 0) expect(ad.top).toBeGreaterThanOrEqual(VIEWPORT.height);
    // Refused slots are removed, not left behind at zero height.
    expect(ads.filter((ad) => ad.height === 0)).toEqual([]);
    expect(await layoutShift(page)).toEqual([]);
  });

  it('skips placements above the current scroll position', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.route('/config-scrolled.json', async () => {
      await held;
      return {
        body: {
          placements: [placement({ selector: '#article p', all: true }, 4)],
          attributes: FAKE,
          adConstraints: { initialMinSpacing: '300px', maxAdCount: 10 },
        },
      };
    });
    const { page } = await open(
      'scrolled',
      autoAdsPage('/config-scrolled.json', `<div id="article">${paragraphs(100)}</div>`),
    );
    await page.evaluate(() => window.scrollTo(0, 3000));
    await expect.poll(() => page.evaluate(() => scrollY), POLL).toBe(3000);
    await expect.poll(() => server.requestsTo('/config-scrolled.json').length, POLL).toBe(1);
    release();
    await waitForPlacement(page);
    await settledAfterScroll(page);
    const ads = await measureAds(page);
    expect(ads.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => scrollY)).toBe(3000);
    for (const ad of ads) expect(ad.top).toBeGreaterThanOrEqual(3000 + VIEWPORT.height);
    expect(await layoutShift(page)).toEqual([]);
  });

  it('places ads in content added to the page later', async () => {
    const path = config('later', {
      placements: [placement({ selector: '#article p', all: true }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '300px', maxAdCount: 10 },
    });
    const { page } = await open('later', autoAdsPage(path, `<div id="article">${paragraphs(3)}</div>`));
    await expect.poll(() => server.requestsTo(path).length, POLL).toBe(1);
    await settled(page);
    const before = (await measureAds(page)).length;
    await page.evaluate(
      (markup) => document.getElementById('article')!.insertAdjacentHTML('beforeend', markup),
      paragraphs(40),
    );
    await expect
      .poll(async () => (await measureAds(page)).filter((ad) => ad.height > 0).length, POLL)
      .toBeGreaterThan(before);
    const ads = autoAds(await measureAds(page));
    expect(gaps(ads).every((gap) => gap >= 300)).toBe(true);
    expect(ads.every((ad) => ad.top >= VIEWPORT.height)).toBe(true);
    expect(await layoutShift(page)).toEqual([]);
  });

  it('inserts one sticky anchor ad for optInStatus 2, ignoring the count', async () => {
    const path = config('anchor-ad', {
      placements: [placement({ selector: '#nothing' }, 4)],
      attributes: FAKE,
      adConstraints: { initialMinSpacing: '100px', maxAdCount: 1 },
      optInStatus: [2],
    });
    const body = `<page-ad class="manual" type="fake" layout="fixed" width="300" height="50"></page-ad><div id="article">${paragraphs(30)}</div>`;
    const { page } = await open('anchor-ad', autoAdsPage(path, body));
    await expect.poll(async () => (await measureAds(page)).length, POLL).toBe(2);
    await settled(page);
    const ads = await measureAds(page);
    expect(ads).toHaveLength(2);
    const sticky = ads.find((ad) => !ad.manual)!;
    expect(['fixed', 'sticky']).toContain(sticky.position);
    const edge = await page.evaluate(() => {
      const ad = [...document.querySelectorAll('page-ad')].find((element) => !element.classList.contains('manual'))!;
      const rect = ad.getBoundingClientRect();
      return Math.abs(rect.top) < 1 || Math.abs(rect.bottom - innerHeight) < 1;
    });
    expect(edge).toBe(true);
  });
});

describe('page-auto-ads acceptance: config fetch', () => {
  it('fetches the config once with GET and without credentials', async () => {
    const path = config('fetch', {
      placements: [placement({ selector: '#article p', all: true }, 4)],
      attributes: FAKE,
    });
    const { page } = await open(
      'fetch',
      autoAdsPage(path, `<div id="article">${paragraphs(60)}</div>`),
      VIEWPORT,
      true,
    );
    await waitForPlacement(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await settledAfterScroll(page);
    const requests = server.requestsTo(path);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.headers.cookie).toBeUndefined();
    // The page itself was requested with the cookie, so omitting it was the component's choice.
    expect(server.requestsTo('/fetch.html').at(-1)!.headers.cookie).toContain('session=secret');
  });

  it('fetches nothing when consent blocks it and the reader rejects', async () => {
    const path = config('consent-reject', {
      placements: [placement({ selector: '#article p', all: true }, 4)],
      attributes: FAKE,
    });
    const markup = autoAdsPage(path, `${CONSENT}<div id="article">${paragraphs(60)}</div>`, {
      attributes: ' data-block-on-consent',
      extensions: ['page-auto-ads', 'page-consent'],
    });
    const { page } = await open('consent-reject', markup);
    await page.waitForSelector('#reject', { state: 'visible', timeout: POLL.timeout });
    await page.click('#reject');
    await page.waitForSelector('#prompt', { state: 'hidden', timeout: POLL.timeout });
    await settled(page);
    expect(server.requestsTo(path)).toHaveLength(0);
    expect(await page.evaluate(() => document.querySelectorAll('page-ad').length)).toBe(0);
  });

  it.each([
    ['data-block-on-consent', { attributes: ' data-block-on-consent' }],
    ['the page-consent-blocking meta tag', { head: '<meta name="page-consent-blocking" content="page-auto-ads">' }],
  ])('fetches nothing before consent when blocked by %s', async (name, blocking) => {
    const slug = `consent-${name.replace(/\W+/g, '-')}`;
    const path = config(slug, { placements: [placement({ selector: '#article p', all: true }, 4)], attributes: FAKE });
    const markup = autoAdsPage(path, `${CONSENT}<div id="article">${paragraphs(60)}</div>`, {
      ...blocking,
      extensions: ['page-auto-ads', 'page-consent'],
    });
    const { page } = await open(slug, markup);
    await page.waitForSelector('#accept', { state: 'visible', timeout: POLL.timeout });
    await settled(page);
    expect(server.requestsTo(path)).toHaveLength(0);
    expect(await page.evaluate(() => document.querySelectorAll('page-ad').length)).toBe(0);
    await page.click('#accept');
    await expect.poll(() => server.requestsTo(path).length, POLL).toBe(1);
    const placed = await waitForPlacement(page);
    expect(placed.detail.adsPlaced).toBeGreaterThan(0);
  });
});

describe('runtime acceptance', () => {
  it('reserves the box of each layout before the element builds', async () => {
    const consent = `<page-consent id="consent" layout="nodisplay"><script type="application/json">
      {"consentInstanceId": "acceptance-layouts", "consentRequired": true, "promptUI": "prompt"}
    </script><div id="prompt">Prompt</div></page-consent>`;
    const img = (id: string, attributes: string) =>
      `<page-img id="${id}" data-block-on-consent src="/img.svg" ${attributes}></page-img>`;
    const body = `${consent}
      <div style="width:400px">${img('responsive', 'layout="responsive" width="16" height="9"')}</div>
      <div>${img('fixed', 'layout="fixed" width="300" height="250"')}</div>
      <div style="width:400px">${img('fixed-height', 'layout="fixed-height" height="100"')}</div>
      <div style="width:400px">${img('intrinsic-large', 'layout="intrinsic" width="800" height="400"')}</div>
      <div style="width:400px">${img('intrinsic-small', 'layout="intrinsic" width="200" height="100"')}</div>
      <div style="position:relative;width:320px;height:180px">${img('fill', 'layout="fill"')}</div>
      <div>${img('nodisplay', 'layout="nodisplay"')}</div>`;
    const { page } = await open('layouts', html(body, { extensions: ['page-consent'] }));
    const sizes = () =>
      page.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('page-img')].map((element) => {
            const rect = element.getBoundingClientRect();
            return [element.id, [Math.round(rect.width), Math.round(rect.height)]];
          }),
        ),
      );
    const expected = {
      responsive: [400, 225],
      fixed: [300, 250],
      'fixed-height': [400, 100],
      'intrinsic-large': [400, 200],
      'intrinsic-small': [200, 100],
      fill: [320, 180],
      nodisplay: [0, 0],
    };
    await expect.poll(sizes, POLL).toEqual(expected);
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('nodisplay')!).display)).toBe('none');
    // Still blocked: nothing built, nothing requested.
    expect(await page.evaluate(() => document.querySelectorAll('page-img img').length)).toBe(0);
    expect(server.requestsTo('/img.svg')).toHaveLength(0);
  });

  it('runs the lifecycle of a third-party element defined with page.define', async () => {
    const script = `<script>
      window.__log = [];
      (self.PAGE = self.PAGE || []).push((page) => {
        page.define('vendor-broken', class extends page.PageElement {
          buildCallback() { throw new Error('vendor failure'); }
        });
        page.define('vendor-widget', class extends page.PageElement {
          buildCallback() { window.__log.push('build:' + this.element.id); this.element.textContent = 'built'; }
          layoutCallback() { window.__log.push('layout:' + this.element.id); return Promise.resolve(); }
        });
      });
    </script>`;
    const body = `${script}
      <vendor-broken id="broken" layout="fixed" width="100" height="50"></vendor-broken>
      <vendor-widget id="near" layout="fixed" width="100" height="50"></vendor-widget>
      <div style="height:20000px"></div>
      <vendor-widget id="far" layout="fixed" width="100" height="50"></vendor-widget>`;
    const { page } = await open('define', html(body));
    const log = () => page.evaluate(() => (window as unknown as { __log: string[] }).__log);
    await expect.poll(log, POLL).toEqual(expect.arrayContaining(['build:near', 'layout:near', 'build:far']));
    expect(await page.evaluate(() => document.getElementById('near')!.textContent)).toBe('built');
    await settled(page);
    expect(await log()).not.toContain('layout:far');
    await page.evaluate(() => document.getElementById('far')!.scrollIntoView());
    await expect.poll(log, POLL).toContain('layout:far');
    await page.evaluate(() => {
      const element = document.createElement('vendor-widget');
      element.id = 'added';
      element.setAttribute('layout', 'fixed');
      element.setAttribute('width', '100');
      element.setAttribute('height', '50');
      document.body.appendChild(element);
    });
    await expect.poll(log, POLL).toEqual(expect.arrayContaining(['build:added', 'layout:added']));
    const entries = await log();
    for (const id of ['near', 'far', 'added'])
      expect(entries.filter((entry) => entry === `build:${id}`)).toHaveLength(1);
  });

  it('runs tap actions on click and on Enter and Space on role=button', async () => {
    const script = `<script>
      window.__log = [];
      (self.PAGE = self.PAGE || []).push((page) => {
        page.define('vendor-target', class extends page.PageElement {
          buildCallback() {
            this.registerAction('ping', () => { window.__log.push('ping'); });
            this.registerAction('pong', () => { window.__log.push('pong'); });
            window.__ready = true;
          }
        });
      });
    </script>`;
    const body = `${script}
      <vendor-target id="target" layout="nodisplay"></vendor-target>
      <button id="button" on="tap:target.ping">Ping</button>
      <div id="role" role="button" tabindex="0" on="tap:target.ping">Ping</div>
      <div id="plain" tabindex="0" on="tap:target.ping">Not a button</div>
      <button id="both" on="tap:target.pong, target.pong">Twice</button>`;
    const { page, errors } = await open('actions', html(body));
    const count = () => page.evaluate(() => (window as unknown as { __log: string[] }).__log.length);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __ready?: boolean }).__ready === true), POLL)
      .toBe(true);
    await page.click('#button');
    await expect.poll(count, POLL).toBe(1);
    await page.focus('#role');
    await page.keyboard.press('Enter');
    await expect.poll(count, POLL).toBe(2);
    await page.keyboard.press('Space');
    await expect.poll(count, POLL).toBe(3);
    await page.focus('#plain');
    await page.keyboard.press('Enter');
    await settled(page);
    expect(await count()).toBe(3);
    await page.click('#both');
    await expect.poll(count, POLL).toBe(5);
    expect(await page.evaluate(() => (window as unknown as { __log: string[] }).__log)).toEqual([
      'ping',
      'ping',
      'ping',
      'pong',
      'pong',
    ]);
    expect(errors).toEqual([]);
  });

  it('logs a diagnostic, never an exception, for an unknown action target', async () => {
    const body = '<button id="unknown" on="tap:nosuchtarget.go">Go</button>';
    const { page, messages, errors } = await open('unknown-target', html(body));
    await expect
      .poll(async () => {
        await page.click('#unknown');
        return messages.filter((m) => (m.type === 'error' || m.type === 'warning') && m.text.includes('nosuchtarget'))
          .length;
      }, POLL)
      .toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('issues one GET for a page-pixel', async () => {
    server.route('/pixel-once', { body: '' });
    const { page } = await open(
      'pixel',
      html('<page-pixel src="/pixel-once?hit=1"></page-pixel><div style="height:3000px"></div>'),
    );
    await expect.poll(() => server.requestsTo('/pixel-once').length, POLL).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 100));
    await settledAfterScroll(page);
    expect(await page.evaluate(() => scrollY)).toBe(100);
    const requests = server.requestsTo('/pixel-once');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('GET');
    expect(requests[0]!.url).toBe('/pixel-once?hit=1');
  });

  it('renders page-iframe as a sandboxed iframe', async () => {
    const { page } = await open(
      'iframe',
      html('<page-iframe src="/frame.html" width="300" height="200" layout="fixed"></page-iframe>'),
    );
    await page.waitForSelector('page-iframe iframe', { state: 'attached', timeout: POLL.timeout });
    const frame = await page.evaluate(() => {
      const iframe = document.querySelector('page-iframe iframe')!;
      const rect = document.querySelector('page-iframe')!.getBoundingClientRect();
      return {
        sandbox: iframe.getAttribute('sandbox'),
        src: iframe.getAttribute('src'),
        size: [rect.width, rect.height],
      };
    });
    expect(frame.sandbox).not.toBeNull();
    expect(frame.src).toContain('/frame.html');
    expect(frame.size).toEqual([300, 200]);
  });

  it('substitutes consent macros in a custom page-ad creative URL', async () => {
    server.route('/creative', { body: '<p>creative</p>' });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the page markup carries the literal macros
    const body =
      '<page-ad type="custom" layout="fixed" width="300" height="250" data-src="/creative?state=${CONSENT_STATE}&gdpr=${GDPR}"></page-ad>';
    const { page } = await open('custom-ad', html(body));
    await expect.poll(() => server.requestsTo('/creative').length, POLL).toBe(1);
    const url = server.requestsTo('/creative')[0]!.url;
    expect(url).toMatch(/^\/creative\?state=[^&]*&gdpr=/);
    expect(decodeURIComponent(url)).not.toContain('${');
    expect(decodeURIComponent(url)).not.toContain('CONSENT_STATE');
    expect(await page.evaluate(() => document.querySelectorAll('page-ad iframe').length)).toBe(1);
  });

  it('renders a fake page-ad as a placeholder of its size that requests nothing', async () => {
    const since = Date.now();
    const { page } = await open(
      'fake-ad',
      html('<page-ad id="ad" type="fake" layout="fixed" width="300" height="250"></page-ad>'),
    );
    await expect
      .poll(() => page.evaluate(() => document.getElementById('ad')!.textContent!.trim().length), POLL)
      .toBeGreaterThan(0);
    const rect = await page.evaluate(() => {
      const r = document.getElementById('ad')!.getBoundingClientRect();
      return [r.width, r.height];
    });
    expect(rect).toEqual([300, 250]);
    await settled(page);
    expect(otherRequests(since, '/fake-ad.html')).toEqual([]);
  });

  it('logs which ad type is unsupported and shows nothing', async () => {
    const since = Date.now();
    const { page, messages, errors } = await open(
      'unknown-ad',
      html('<page-ad id="ad" type="nosuchnetwork" layout="fixed" width="300" height="250" data-slot="x"></page-ad>'),
    );
    await expect
      .poll(
        () =>
          messages.filter((m) => (m.type === 'error' || m.type === 'warning') && m.text.includes('nosuchnetwork'))
            .length,
        POLL,
      )
      .toBeGreaterThan(0);
    await settled(page);
    expect(await page.evaluate(() => document.querySelectorAll('#ad iframe').length)).toBe(0);
    expect(otherRequests(since, '/unknown-ad.html')).toEqual([]);
    expect(errors).toEqual([]);
  });
});
