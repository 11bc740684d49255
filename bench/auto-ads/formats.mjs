// The overlay formats of the auto-ads part (docs/auto-ads.md, "Vignette" and "Side rails"), at
// 1440x900 where side rails fit: what side rails cost on a page of 10,000 blocks (a config with
// only a `sideRail` placement beside the scale page's in-content config: rails and in-content ads
// share `maxAdCount`, so with both the first to insert takes the places; the whole page view's
// main-thread time until the ads are in place), and what a vignette costs between the reader's
// click on a same-site link and the overlay on screen (the second page of a visit, fake ads).
import { article, autoAdsConfig } from './auto-ads-pages.mjs';
import { installPlacementProbe } from './placement-probe.mjs';

export const FORMATS_VIEWPORT = { width: 1440, height: 900 };
export const RAIL_BLOCKS = 10000;
const WAIT_MS = 120_000;
const SETTLE_MS = 500;

const RAILS = { type: 'sideRail', sides: 'both', width: 300 };
const VIGNETTE = { type: 'vignette', intervalSeconds: 0, timeoutMs: 3000 };

function formatPage({ title, config, body }) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <title>${title}</title>
  <script async src="/v0.js"></script>
  <script async custom-element="page-auto-ads" src="/v0/page-auto-ads-0.1.js"></script>
  <style>body { font: 16px/1.5 sans-serif; margin: 0 auto; max-width: 44rem; padding: 1rem; }</style>
</head>
<body>${config ? `<page-auto-ads type="custom" data-config-url="${config}"></page-auto-ads>` : ''}
<main>${body}</main>
</body>
</html>
`;
}

/** Registers the format pages; returns their URLs. */
export function serveFormatPages(server) {
  const config = autoAdsConfig();
  server.page('/formats/in-content.json', JSON.stringify(config), 'application/json');
  server.page('/formats/rails.json', JSON.stringify({ ...config, placements: [RAILS] }), 'application/json');
  server.page(
    '/formats/vignette.json',
    JSON.stringify({ placements: [VIGNETTE], attributes: { type: 'fake' } }),
    'application/json',
  );
  const big = article(RAIL_BLOCKS);
  server.page(
    '/formats/in-content.html',
    formatPage({ title: 'In-content ads', config: '/formats/in-content.json', body: big }),
  );
  server.page('/formats/rails.html', formatPage({ title: 'Side rails', config: '/formats/rails.json', body: big }));
  const link = (href) => `${article(20)}<p><a id="next" href="${href}">Next story</a></p>`;
  server.page('/formats/visit.html', formatPage({ title: 'Home', config: null, body: link('/formats/story.html') }));
  server.page(
    '/formats/story.html',
    formatPage({ title: 'Story', config: '/formats/vignette.json', body: link('/formats/after.html') }),
  );
  server.page('/formats/after.html', formatPage({ title: 'After', config: null, body: '<p>The next story.</p>' }));
  return {
    inContent: `${server.origin}/formats/in-content.html`,
    rails: `${server.origin}/formats/rails.html`,
    visit: `${server.origin}/formats/visit.html`,
  };
}

async function metrics(cdp) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const read = (name) => (list.find((metric) => metric.name === name)?.value ?? 0) * 1000;
  return { scriptMs: read('ScriptDuration'), mainThreadMs: read('TaskDuration') };
}

/** One page view of `url` until its in-content ads (`rails` 0) or its `rails` side rails are in place, then a quiet moment. */
export async function runRailsVisit(browser, { url, rails }) {
  const context = await browser.newContext({ viewport: FORMATS_VIEWPORT });
  try {
    const page = await context.newPage();
    await page.addInitScript(installPlacementProbe);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(
      (count) =>
        window.__bench.placed !== null && document.querySelectorAll('page-ad[data-side-rail]').length === count,
      rails,
      { timeout: WAIT_MS, polling: 100 },
    );
    await page.waitForTimeout(SETTLE_MS);
    const probe = await page.evaluate(() => ({
      placed: window.__bench.placed,
      layoutShift: window.__bench.layoutShift,
      rails: document.querySelectorAll('page-ad[data-side-rail]').length,
    }));
    return {
      ...(await metrics(cdp)),
      adsPlaced: probe.placed.adsPlaced,
      rails: probe.rails,
      layoutShift: probe.layoutShift,
    };
  } finally {
    await context.close();
  }
}

/** Runs in the story page: the time of the reader's click (capture, before any handler) and of the first frame with the overlay open. */
function watchOverlay() {
  const state = { clickAt: null, visibleAt: null };
  window.__vignette = state;
  addEventListener('click', () => (state.clickAt ??= performance.now()), true);
  new MutationObserver(() => {
    const dialog = document.querySelector('dialog.page-vignette[open]');
    if (!dialog || state.visibleAt !== null || state.clickAt === null) return;
    state.visibleAt = -1;
    requestAnimationFrame(() => setTimeout(() => (state.visibleAt = performance.now())));
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['open'] });
}

/** A visit's second page (the story): once it has settled, the reader clicks a same-site link; until the overlay is on screen. */
export async function runVignetteVisit(browser, { url }) {
  const context = await browser.newContext({ viewport: FORMATS_VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.addInitScript(watchOverlay);
    await Promise.all([page.waitForURL(/story\.html$/), page.click('#next')]);
    await page.waitForSelector('page-auto-ads.page-built', { state: 'attached', timeout: WAIT_MS });
    await page.waitForTimeout(SETTLE_MS);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const before = await metrics(cdp);
    await page.click('#next', { noWaitAfter: true });
    await page.waitForFunction(() => window.__vignette.visibleAt > 0, null, { timeout: WAIT_MS, polling: 50 });
    const after = await metrics(cdp);
    const { clickAt, visibleAt } = await page.evaluate(() => window.__vignette);
    return {
      clickToVisibleMs: visibleAt - clickAt,
      scriptMs: after.scriptMs - before.scriptMs,
      mainThreadMs: after.mainThreadMs - before.mainThreadMs,
    };
  } finally {
    await context.close();
  }
}
