// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { PlacementSpec, Position } from '../../../src/wire/auto-ads-config.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { type StrategyOptions, type StrategyResult, createStrategy } from '../../../src/auto-ads/strategy.ts';
import { article, createFakePage, type FakePage, pageBox, paragraphs } from './fake-page.ts';

const placement = (selector: string, patch: Partial<PlacementSpec> = {}): PlacementSpec => ({
  anchor: { selector, index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
  position: 'after' as Position,
  marginTop: 0,
  marginBottom: 0,
  attributes: {},
  ...patch,
});

const px = (value: number) => ({ value, unit: 'px' }) as const;

type Setup = { page: FakePage; runs: StrategyResult[] };

async function start(
  html: string,
  options: Partial<Omit<StrategyOptions, 'page' | 'onRun'>> = {},
  prepare = (_page: FakePage) => {},
): Promise<Setup> {
  document.body.innerHTML = html;
  const page = createFakePage();
  prepare(page);
  const runs: StrategyResult[] = [];
  createStrategy({
    page,
    placements: [placement('article > p')],
    constraints: DEFAULT_CONSTRAINTS,
    attributes: { layout: 'fixed-height', height: '0', type: 'fake' },
    height: () => 250,
    onRun: (result) => runs.push({ ...result, candidates: [...result.candidates] }),
    ...options,
  })(true);
  await page.settle();
  return { page, runs };
}

const insertedAds = () => [...document.querySelectorAll<HTMLElement>('page-ad')];
/** Id of the element right before each ad. */
const adPositions = () =>
  insertedAds().map((ad) => ad.previousElementSibling?.id ?? `first-in-${ad.parentElement?.id}`);
const outcomes = (run: StrategyResult | undefined) => run?.candidates.map((c) => `${c.anchor.id}:${c.outcome}`);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('strategy', () => {
  it('excludes anchors on or inside data-no-auto-ads elements', async () => {
    const html = `<article>${paragraphs(5)}<section data-no-auto-ads>${paragraphs(10, 'x')}</section><p id="last" data-h="100" data-no-auto-ads>end</p>${paragraphs(10, 'q')}</article>`;
    const { runs } = await start(html, { placements: [placement('article p')] });
    // Nothing inside the section or after #last; q0 (1700) is the first candidate 1vp past the ad at p4.
    expect(adPositions()).toEqual(['p4', 'q0', 'q5']);
    const excluded = runs[0]?.candidates.filter((c) => c.outcome === 'excluded').map((c) => c.anchor.id);
    expect(excluded).toEqual([...Array.from({ length: 10 }, (_, i) => `x${i}`), 'last']);
  });

  it('keeps ads within 30% of the main content on narrow viewports and says which were skipped for density', async () => {
    const { runs } = await start(
      `<header data-h="400"></header><main>${paragraphs(20)}</main>`,
      { placements: [placement('main > p')] },
      (page) => {
        page.viewportWidth = 375;
        page.viewportHeight = 300;
      },
    );
    // Main content 2000 px of text; spacing alone (1vp = 300 px) would allow more ads than 30% does.
    const heights = insertedAds().reduce((sum, ad) => sum + pageBox(ad).height, 0);
    const main = pageBox(document.querySelector('main')!).height;
    expect(heights).toBeLessThanOrEqual(0.3 * main);
    expect(runs[0]?.candidates.some((c) => c.outcome === 'density')).toBe(true);
    expect(runs[0]?.density).toBeCloseTo(heights / main);
  });

  it('does not apply the density rule from 768 px of viewport width', async () => {
    const { runs } = await start(`<main>${paragraphs(20)}</main>`, { placements: [placement('main > p')] }, (page) => {
      page.viewportWidth = 768;
      page.viewportHeight = 300;
    });
    expect(runs[0]?.candidates.some((c) => c.outcome === 'density')).toBe(false);
    expect(runs[0]?.density).toBeUndefined();
    const heights = insertedAds().reduce((sum, ad) => sum + pageBox(ad).height, 0);
    expect(heights).toBeGreaterThan(0.3 * pageBox(document.querySelector('main')!).height);
  });

  it('counts a sticky ad once toward the density', async () => {
    const sticky = '<page-ad sticky="bottom" style="height:600px"></page-ad>';
    const { runs } = await start(
      `${sticky}<main>${paragraphs(20)}</main>`,
      { placements: [placement('main > p')] },
      (page) => {
        page.viewportWidth = 375;
        page.viewportHeight = 300;
      },
    );
    // 600 + 250 = 850 > 0.3 * 2250 = 675: no in-content ad fits.
    expect(insertedAds().filter((ad) => !ad.hasAttribute('sticky'))).toHaveLength(0);
    expect(runs[0]?.candidates.some((c) => c.outcome === 'density')).toBe(true);
  });

  it('places ads only where the arbiter lets them grow, spaced by the spacing in force', async () => {
    // Viewport 500 px: 1vp = 500 px until 3 ads, 2vp until 6, then 3vp; paragraphs of 100 px.
    const { runs } = await start(article(60));
    const ys = insertedAds().map((ad) => pageBox(ad).top);
    expect(adPositions()).toEqual(['p4', 'p9', 'p14', 'p24', 'p34', 'p44', 'p59']);
    expect(ys).toEqual([500, 1250, 2000, 3250, 4500, 5750, 7500]);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ adsPlaced: 7, totalAdsOnPage: 7 });
  });

  it('allows an ad exactly at the minimum distance', async () => {
    await start(article(12));
    // Ad 1 spans 500-750; p9 ends at 1250: exactly 500 px (1vp) below it.
    expect(adPositions()).toEqual(['p4', 'p9']);
  });

  it('skips positions inside the first viewport without inserting anything', async () => {
    const { page, runs } = await start(article(12));
    expect(outcomes(runs[0])?.slice(0, 6)).toEqual([
      'p0:in-viewport',
      'p1:in-viewport',
      'p2:in-viewport',
      'p3:in-viewport',
      'p4:placed',
      'p5:too-near',
    ]);
    // One measure task decided the whole round; nothing went through the arbiter one by one.
    expect(page.measureTasks).toBe(1);
  });

  it('places only ads whose growth the change-size arbiter would apply, and never asks it one by one', async () => {
    const asked: string[] = [];
    await start(article(14), {}, (page) => {
      page.attemptChangeSize = async (element) => void asked.push(element.id);
    });
    // Every placed ad starts at or below the viewport bottom (500): the arbiter's own rule applies them.
    expect(insertedAds().every((ad) => pageBox(ad).top >= 500)).toBe(true);
    expect(asked).toEqual([]);
  });

  it('inserts each slot in flow at its full height, in the frame that decided it', async () => {
    const seen: string[] = [];
    await start(article(8), {}, (page) => {
      const mutate = page.viewport.mutate;
      page.viewport.mutate = (task) =>
        mutate(() => {
          task();
          for (const ad of insertedAds()) seen.push(`${ad.style.position || 'static'} ${ad.style.height}`);
        });
    });
    expect(seen).toEqual(['static 250px']);
    expect(insertedAds()).toHaveLength(1);
  });

  it('applies top_m and bot_m as margins', async () => {
    await start(article(8), { placements: [placement('article > p', { marginTop: 10, marginBottom: 20 })] });
    const [ad] = insertedAds();
    expect([ad?.style.marginTop, ad?.style.marginBottom]).toEqual(['10px', '20px']);
  });

  it('puts placement attributes over the base attributes', async () => {
    await start(article(8), {
      placements: [placement('article > p', { attributes: { type: 'custom', 'data-src': '/ad' } })],
    });
    const [ad] = insertedAds();
    expect(Object.fromEntries([...ad!.attributes].map((a) => [a.name, a.value]))).toMatchObject({
      layout: 'fixed-height',
      height: '0',
      type: 'custom',
      'data-src': '/ad',
    });
  });

  it('keeps sticky off in-content ads, so they count toward maxAdCount', async () => {
    const { runs } = await start(article(60), {
      attributes: { layout: 'fixed-height', height: '0', type: 'fake', sticky: 'top' },
      constraints: { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 2 },
    });
    expect(insertedAds().map((ad) => ad.hasAttribute('sticky'))).toEqual([false, false]);
    expect(runs[0]).toMatchObject({ adsPlaced: 2, totalAdsOnPage: 2 });
  });

  it('inserts at each of the four positions', async () => {
    const spec = (selector: string, position: Position) => placement(selector, { position });
    document.body.innerHTML = '';
    await start(
      '<div id="top" data-h="2000"></div><section id="s1"><p id="a" data-h="10"></p></section><div data-h="2000"></div><section id="s2"><p data-h="10"></p></section><div data-h="2000"></div><section id="s3"><p data-h="10"></p></section><div data-h="2000"></div><section id="s4"><p id="d" data-h="10"></p></section>',
      {
        placements: [
          spec('#s1', 'before'),
          spec('#s2', 'first-child'),
          spec('#s3', 'last-child'),
          spec('#s4', 'after'),
        ],
        constraints: { ...DEFAULT_CONSTRAINTS, initialMinimumSpacing: px(0), subsequentMinimumSpacing: [] },
      },
    );
    const ads = insertedAds();
    expect(
      ads.map((ad) => [
        ad.parentElement?.id || ad.parentElement?.tagName,
        ad.previousElementSibling?.id ?? null,
        ad.nextElementSibling?.id ?? null,
      ]),
    ).toEqual([
      ['BODY', 'top', 's1'],
      ['s2', null, ''],
      ['s3', '', null],
      ['BODY', 's4', null],
    ]);
    expect(ads[1]?.nextElementSibling?.tagName).toBe('P');
    expect(ads[2]?.previousElementSibling?.tagName).toBe('P');
  });

  it('tries placements in config order, then document order', async () => {
    const { runs } = await start(article(40), {
      placements: [placement('#p30'), placement('article > p')],
      constraints: { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 2 },
    });
    expect(adPositions()).toEqual(['p4', 'p30']);
    expect(outcomes(runs[0])?.slice(0, 2)).toEqual(['p30:placed', 'p0:in-viewport']);
  });

  it('counts manual ads toward maxAdCount and spacing', async () => {
    const manual = '<page-ad id="m1" data-h="250"></page-ad>';
    const { runs } = await start(`<article>${paragraphs(30)}${manual}${paragraphs(30, 'q')}</article>`, {
      constraints: { initialMinimumSpacing: px(400), subsequentMinimumSpacing: [], maximumAdCount: 3 },
    });
    expect(runs[0]).toMatchObject({ adsPlaced: 2, totalAdsOnPage: 3 });
    expect(insertedAds().map((ad) => ad.id || 'auto')).toEqual(['auto', 'auto', 'm1']);
  });

  it('places nothing when manual ads already reach maxAdCount', async () => {
    const { runs } = await start('<page-ad data-h="250"></page-ad>' + article(30), {
      constraints: { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 1 },
    });
    expect(runs[0]).toMatchObject({ adsPlaced: 0, totalAdsOnPage: 1 });
    expect(new Set(runs[0]?.candidates.map((c) => c.outcome))).toEqual(new Set(['max-count']));
  });

  it('does not count a sticky ad', async () => {
    const { runs } = await start('<page-ad sticky="bottom" style="position:fixed"></page-ad>' + article(30), {
      constraints: { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 1 },
    });
    expect(runs[0]).toMatchObject({ adsPlaced: 1, totalAdsOnPage: 1 });
  });

  it('skips candidates above the current scroll position', async () => {
    const { runs } = await start(article(30), {}, (page) => {
      page.scrollTop = 1000;
    });
    const first = runs[0]?.candidates.findIndex((c) => c.outcome !== 'above-scroll');
    expect(runs[0]?.candidates[first! - 1]?.anchor.id).toBe('p8');
    expect(adPositions()[0]).toBe('p14');
  });

  it('never places into denied ancestors', async () => {
    const { runs } = await start(
      `<page-sidebar><p class="x" id="in-sidebar" data-h="100"></p></page-sidebar>${article(10)}`,
      {
        placements: [placement('.x, article > p')],
      },
    );
    expect(outcomes(runs[0])?.[0]).toBe('in-sidebar:denied-ancestor');
    expect(document.querySelector('page-sidebar page-ad')).toBeNull();
  });

  it('denies containers positioned fixed or sticky', async () => {
    const { runs } = await start(
      `<div style="position:sticky" id="bar"><p class="x" id="in-bar" data-h="600"></p></div>${article(10)}`,
      {
        placements: [placement('.x, article > p')],
      },
    );
    expect(outcomes(runs[0])?.[0]).toBe('in-bar:denied-ancestor');
  });

  it('decides every placement in one measure task per round, and reads no anchor after the count is reached', async () => {
    const { page, runs } = await start(article(300));
    const candidates = runs[0]?.candidates ?? [];
    expect(candidates.filter((c) => c.outcome === 'placed').length).toBe(8);
    // The candidate after the eighth ad ends the round; the other anchors are never read.
    expect(candidates.at(-1)?.outcome).toBe('max-count');
    expect(candidates.length).toBeLessThan(300);
    expect(page.measureTasks).toBe(1);
  });

  it('considers content added later within the same constraints', async () => {
    const { page, runs } = await start(article(12));
    expect(adPositions()).toEqual(['p4', 'p9']);
    document.querySelector('article')!.insertAdjacentHTML('beforeend', paragraphs(30, 'q'));
    await page.settle();
    // 2 ads: 1vp (500 px) until the third, then 2vp (1000 px).
    expect(adPositions()).toEqual(['p4', 'p9', 'q2', 'q12', 'q22']);
    expect(runs.map((run) => run.adsPlaced)).toEqual([2, 5]);
    expect(runs[1]?.candidates).toHaveLength(42);
  });

  it('ignores additions inside ads', async () => {
    const { page, runs } = await start(article(12));
    const before = page.measureTasks;
    insertedAds()[0]!.append(document.createElement('div'));
    await page.settle();
    expect(page.measureTasks).toBe(before);
    expect(runs).toHaveLength(1);
  });

  it('reports placements that matched nothing', async () => {
    const missing = placement('.missing');
    const { runs } = await start(article(8), { placements: [missing, placement('article > p')] });
    expect(runs[0]?.unmatched).toEqual([missing]);
  });
});
