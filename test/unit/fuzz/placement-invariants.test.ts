// @vitest-environment happy-dom
/**
 * Placement invariants of auto ads (docs/reliability.md, "Fuzzing") on generated pages and configs, through
 * the real path: the config is served as JSON text to `<page-auto-ads type="custom">`, which
 * parses it (src/wire/auto-ads-config.ts) and runs the placement strategy (strategy.ts,
 * placement.ts `planRound`) on a page laid out by the block model of fake-page.ts; content is
 * then added once, so a second round runs. After each round, independently of the plan:
 *   1. count: before each inserted ad, fewer than `maxAdCount` ads (manual and inserted, the
 *      sticky anchor ad excepted) were on the page (docs/auto-ads.md, "Config format" (adConstraints) and "Placement");
 *   2. spacing: the point where each ad was inserted is at least the spacing in force at that
 *      count (docs/auto-ads.md, "Config format": the rule with the largest `adCount` not above it, else
 *      `initialMinSpacing`) from every ad then on the page, measured again on the page with the
 *      later ads taken out; and every two ads' boxes are at least that far apart;
 *   3. exclusion: no inserted ad has a `page-sidebar`, `page-app-banner`, `page-ad` or a
 *      fixed/sticky-positioned ancestor, or a `data-no-auto-ads` one (or is itself inside one).
 * Runs and seed as the parser properties (harness.ts, docs/decisions/fuzzing.md).
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutoAdsElement } from '../../../src/auto-ads/element.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';
import type { Constraints } from '../../../src/wire/auto-ads-constraints.ts';
import { createFakePage, type FakePage, pageBox } from '../auto-ads/fake-page.ts';
import { ensure, RUNS, SEED } from './harness.ts';

const IS_LONG_RUN = RUNS > 300;
/**
 * Each input lays out a page and runs two rounds (about 30-100 ms): `npm test` checks 100 of them,
 * a long run FUZZ_RUNS but at most FUZZ_PLACEMENT_RUNS (default 10,000: the heap grows with the
 * inputs, and 40,000 exhausted 4 GB), so `npm run fuzz` finishes.
 */
const PLACEMENT_MAX_RUNS =
  Number(process.env.FUZZ_PLACEMENT_RUNS) > 0 ? Math.floor(Number(process.env.FUZZ_PLACEMENT_RUNS)) : 10_000;
const RUNS_HERE = IS_LONG_RUN || process.env.FUZZ_RUNS ? Math.min(RUNS, PLACEMENT_MAX_RUNS) : 100;

// ---------------------------------------------------------------------------------------------
// Pages: a tree of blocks. Heights live on `<i data-h>` leaves only, so every element an ad can
// be put into takes its height from its children, ads included (the block model's rule).

type Node =
  | { kind: 'leaf'; tag: 'p' | 'h2'; className: string; height: number; text: number; isExcluded: boolean }
  | { kind: 'ad'; height: number }
  | {
      kind: 'box';
      tag: 'section' | 'div' | 'page-sidebar' | 'page-app-banner' | 'sticky' | 'article';
      className: string;
      isExcluded: boolean;
      children: Node[];
    };

const CLASSES = ['a', 'b', ''];

const leaf: fc.Arbitrary<Node> = fc.record({
  kind: fc.constant('leaf' as const),
  tag: fc.constantFrom('p' as const, 'p' as const, 'h2' as const),
  className: fc.constantFrom(...CLASSES),
  height: fc.integer({ min: 0, max: 500 }),
  text: fc.integer({ min: 0, max: 120 }),
  isExcluded: fc.integer({ min: 0, max: 11 }).map((n) => n === 0),
});
/** At least 1 px high: a zero-height page ad exactly at an insertion point is outside the plan's model (see below). */
const manualAd: fc.Arbitrary<Node> = fc.record({
  kind: fc.constant('ad' as const),
  height: fc.integer({ min: 1, max: 300 }),
});

const { node } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    { weight: 10, arbitrary: leaf },
    { weight: 1, arbitrary: manualAd },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('box' as const),
        tag: fc.constantFrom(
          'section' as const,
          'section' as const,
          'div' as const,
          'article' as const,
          'page-sidebar' as const,
          'page-app-banner' as const,
          'sticky' as const,
        ),
        className: fc.constantFrom(...CLASSES),
        isExcluded: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
        children: fc.array(tie('node'), { minLength: 1, maxLength: 5 }),
      }),
    },
  ),
}));

let ids = 0;
function render(item: Node): string {
  const id = `n${ids++}`;
  if (item.kind === 'ad')
    return `<page-ad id="${id}" type="fake" data-manual><i data-h="${item.height}"></i></page-ad>`;
  const excluded = item.isExcluded ? ' data-no-auto-ads' : '';
  const classes = item.className ? ` class="${item.className}"` : '';
  if (item.kind === 'leaf')
    return `<${item.tag} id="${id}"${classes}${excluded}>${'x'.repeat(item.text)}<i data-h="${item.height}"></i></${item.tag}>`;
  const tag = item.tag === 'sticky' ? 'div' : item.tag;
  const style = item.tag === 'sticky' ? ' style="position: sticky; top: 0"' : '';
  return `<${tag} id="${id}"${classes}${excluded}${style}>${item.children.map(render).join('')}</${tag}>`;
}

// ---------------------------------------------------------------------------------------------
// Configs: ConfigObj JSON, mostly well-formed, with the parser's edges (invalid selectors, pos
// out of range, bad constraints falling back to the network's defaults, consent markers).

const SELECTORS = [
  'p',
  'p',
  'p',
  'h2',
  'main > p',
  'section > p',
  'section',
  'div',
  'article',
  '.a',
  '.b',
  'main > p',
  'main > section',
  'section > p',
  'section p',
  'div > *',
  'p:nth-child(2)',
  'page-sidebar',
  'page-sidebar p',
  'page-app-banner > *',
  'page-ad',
  '[data-no-auto-ads]',
  '[data-no-auto-ads] p',
  'main',
  'footer p',
  'p, h2',
];
/** Rarely: a selector the parser or the element refuses (its placement is dropped). */
const selector = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom(...SELECTORS) },
  { weight: 1, arbitrary: fc.constantFrom('p[', ':has(', '', ' ') },
);
/** Mostly right, rarely wrong (each wrong field drops its placement). */
const mostly = <T, U>(right: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 15, arbitrary: right }, { weight: 1, arbitrary: wrong });
const spacingText = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 600 }).map((n) => `${n}px`) },
  { weight: 1, arbitrary: fc.integer({ min: 600, max: 3000 }).map((n) => `${n}px`) },
  { weight: 2, arbitrary: fc.constantFrom('0px', '.5vp', '1vp', '1.5vp', '2vp', '0.25vp') },
  { weight: 1, arbitrary: fc.constantFrom('-1px', '100', '10em', '1e3px', '') },
);
const anchorArbitrary = fc.letrec<{ anchor: Record<string, unknown> }>((tie) => ({
  anchor: fc.record(
    {
      selector,
      index: fc.option(mostly(fc.integer({ min: 0, max: 6 }), fc.constantFrom(-1, 1.5, '1')), {
        nil: undefined,
        freq: 2,
      }),
      all: mostly(fc.constantFrom(true, true, false), fc.constant('true')),
      min_c: fc.option(mostly(fc.integer({ min: 0, max: 100 }), fc.constant(-1)), { nil: undefined, freq: 2 }),
      sub: fc.oneof(
        { depthSize: 'small', maxDepth: 2 },
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: tie('anchor') },
      ),
    },
    { requiredKeys: ['selector', 'all'] },
  ),
})).anchor;
const margin = fc.oneof(
  { weight: 3, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 200 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 10_000 }) },
);
const placementArbitrary = fc.record(
  {
    anchor: anchorArbitrary,
    pos: mostly(fc.integer({ min: 1, max: 4 }), fc.constantFrom(0, 5, '2')),
    type: mostly(fc.constant(1), fc.constant(2)),
    style: fc.record({ top_m: margin, bot_m: margin }, { requiredKeys: [] }),
    attributes: fc.dictionary(
      fc.constantFrom('type', 'layout', 'sticky', 'data-slot', 'data-block-on-consent', 'height'),
      fc.constantFrom('fake', 'top', 'x', '300'),
    ),
  },
  { requiredKeys: ['anchor', 'pos', 'type'] },
);
const constraintsArbitrary = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        initialMinSpacing: spacingText,
        subsequentMinSpacing: fc.array(fc.record({ adCount: fc.integer({ min: 0, max: 10 }), spacing: spacingText }), {
          maxLength: 3,
        }),
        maxAdCount: mostly(fc.integer({ min: 0, max: 12 }), fc.constantFrom(-1, 2.5, '3')),
      },
      { requiredKeys: ['initialMinSpacing', 'maxAdCount'] },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(undefined, null, {}, 'none') },
);
const configArbitrary = fc.record(
  {
    placements: fc.array(placementArbitrary, { minLength: 1, maxLength: 5 }),
    attributes: fc.dictionary(
      fc.constantFrom('type', 'data-ad-client', 'sticky', 'layout'),
      fc.constantFrom('fake', 'pub-1', 'bottom', 'fixed-height'),
    ),
    adConstraints: constraintsArbitrary,
    optInStatus: fc.constantFrom([], [2], [1, 2]),
  },
  { requiredKeys: ['placements'] },
);

const scenarioArbitrary = fc.record({
  header: fc.integer({ min: 0, max: 400 }),
  body: fc.array(node, { minLength: 3, maxLength: 16 }),
  footer: fc.array(leaf, { maxLength: 3 }),
  /** Content added after the first round (a rescan), and where: appended to `main`, or into the n-th box. */
  added: fc.array(node, { maxLength: 4 }),
  addedInto: fc.nat(),
  config: configArbitrary,
  viewportHeight: fc.integer({ min: 150, max: 900 }),
  viewportWidth: fc.constantFrom(375, 1024),
  scrollTop: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  ),
});

// ---------------------------------------------------------------------------------------------
// The invariants, read from the page.

const DENIED = 'page-sidebar, page-app-banner, page-ad';

function spacingInForce(constraints: Constraints, count: number, viewportHeight: number): number {
  let spacing = constraints.initialMinimumSpacing;
  let best = -1;
  for (const rule of constraints.subsequentMinimumSpacing) {
    if (rule.adCount <= count && rule.adCount >= best) {
      best = rule.adCount;
      spacing = rule.spacing;
    }
  }
  return spacing.unit === 'px' ? spacing.value : spacing.value * viewportHeight;
}

const distance = (y: number, box: { top: number; bottom: number }) =>
  y >= box.top && y <= box.bottom ? 0 : Math.min(Math.abs(y - box.top), Math.abs(y - box.bottom));

/** Counted ads: every `page-ad` but the sticky anchor ad. */
const countedAds = () => [...document.querySelectorAll<HTMLElement>('page-ad:not([sticky])')];

/**
 * `inserted`: the auto ads in the order of insertion; `before`: how many counted ads were on the
 * page before each one (manual ones, then the earlier inserted ones).
 */
function checkInvariants(
  inserted: HTMLElement[],
  manual: number,
  constraints: Constraints,
  viewportHeight: number,
  label: string,
): void {
  // 1. count
  ensure(
    countedAds().length === manual + inserted.length,
    `${label}: ${countedAds().length} counted ads, expected ${manual} manual + ${inserted.length} inserted`,
  );
  for (let k = 0; k < inserted.length; k++) {
    ensure(
      manual + k < constraints.maximumAdCount,
      `${label}: ad #${k} inserted with ${manual + k} ads on the page, maxAdCount ${constraints.maximumAdCount}`,
    );
  }

  // 3. exclusion
  for (const [k, ad] of inserted.entries()) {
    const parent = ad.parentElement;
    ensure(
      parent !== null && ad.isConnected,
      `${label}: ad #${k} is not on the page (${ad.outerHTML.slice(0, 200)}, parent ${ad.parentNode?.nodeName})`,
    );
    const denied = parent.closest(DENIED);
    ensure(!denied, `${label}: ad #${k} inside ${denied?.tagName.toLowerCase()} #${denied?.id}`);
    ensure(!ad.closest('[data-no-auto-ads]'), `${label}: ad #${k} inside a data-no-auto-ads subtree`);
    for (let up: Element | null = parent; up; up = up.parentElement) {
      ensure(
        !/fixed|sticky/.test(getComputedStyle(up).position),
        `${label}: ad #${k} inside a ${getComputedStyle(up).position} container #${up.id}`,
      );
    }
  }

  // 2. spacing, pairwise on the page as it is: ad k and every ad there before it.
  const manualAds = countedAds().filter((ad) => !inserted.includes(ad));
  const boxes = new Map([...manualAds, ...inserted].map((ad) => [ad, pageBox(ad)]));
  for (const [k, ad] of inserted.entries()) {
    const spacing = spacingInForce(constraints, manual + k, viewportHeight);
    const box = boxes.get(ad)!;
    for (const other of [...manualAds, ...inserted.slice(0, k)]) {
      const them = boxes.get(other)!;
      const gap = Math.max(them.top - box.bottom, box.top - them.bottom);
      ensure(
        gap >= spacing,
        `${label}: ad #${k} (${box.top}-${box.bottom}) is ${gap}px from ${other.id || 'an inserted ad'} (${them.top}-${them.bottom}), spacing ${spacing}`,
      );
    }
  }
  // 2. spacing, the documented rule: the insertion point, measured with the later ads taken out.
  const parked: [HTMLElement, Comment][] = [];
  try {
    for (let k = inserted.length - 1; k >= 0; k--) {
      const ad = inserted[k]!;
      const marker = document.createElement('i');
      marker.setAttribute('data-h', '0');
      ad.replaceWith(marker);
      const y = pageBox(marker).top;
      const spacing = spacingInForce(constraints, manual + k, viewportHeight);
      for (const other of [...manualAds, ...inserted.slice(0, k)]) {
        const them = pageBox(other);
        ensure(
          distance(y, them) >= spacing,
          `${label}: ad #${k} inserted at y ${y}, ${distance(y, them)}px from ${other.id || 'an inserted ad'} (${them.top}-${them.bottom}), spacing ${spacing}`,
        );
      }
      const slot = document.createComment('parked');
      marker.replaceWith(slot);
      parked.push([ad, slot]);
    }
  } finally {
    for (const [ad, slot] of parked) slot.replaceWith(ad);
  }
}

// ---------------------------------------------------------------------------------------------

let page: FakePage;

beforeEach(() => {
  page = createFakePage();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** `item` with its manual ads left out. */
const withoutAds = (item: Node): Node[] =>
  item.kind === 'ad' ? [] : item.kind === 'box' ? [{ ...item, children: item.children.flatMap(withoutAds) }] : [item];

type Scenario = typeof scenarioArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** The previous input's element: switched off as unlayout does, so its MutationObserver does not place on the next page. */
let previous: { unlayoutCallback(): void } | undefined;

async function runScenario(s: Scenario): Promise<{ inserted: number }> {
  previous?.unlayoutCallback();
  // The fake page's vi.fn() spies keep every call (events, elements): long runs would keep every page.
  vi.clearAllMocks();
  ids = 0;
  page = createFakePage();
  Object.assign(page, { scrollTop: s.scrollTop, viewportHeight: s.viewportHeight, viewportWidth: s.viewportWidth });
  const text = JSON.stringify(s.config);
  vi.stubGlobal('fetch', async () => new Response(text, { status: 200 }));
  document.body.innerHTML =
    '<page-auto-ads type="custom" data-config-url="/ads/config" data-ad-client="pub-1"></page-auto-ads>' +
    `<header id="h"><i data-h="${s.header}"></i></header><main id="main">${s.body.map(render).join('')}</main>` +
    `<footer id="foot">${s.footer.map(render).join('')}</footer>`;
  const inserted: HTMLElement[] = [];
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const added of record.addedNodes) {
        if (
          added instanceof HTMLElement &&
          added.tagName === 'PAGE-AD' &&
          !added.hasAttribute('sticky') &&
          !added.hasAttribute('data-manual') &&
          !inserted.includes(added)
        )
          inserted.push(added);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  const constraints = parseAutoAdsConfig(s.config, DEFAULT_CONSTRAINTS).value!.constraints;
  const element = document.querySelector<HTMLElement>('page-auto-ads')!;
  const Implementation = createAutoAdsElement(page);
  const instance = new Implementation(element, page);
  previous = instance;
  instance.buildCallback();
  await page.settle();
  const manual = countedAds().filter((ad) => ad.hasAttribute('data-manual')).length;
  checkInvariants(inserted, manual, constraints, s.viewportHeight, 'round 1');
  if (s.added.length) {
    // A rescan: new content (no manual ads, so round 1's counts stay what they were).
    const content = s.added.flatMap(withoutAds).map(render).join('');
    const boxes = [...document.querySelectorAll('main section, main div:not([style]), main article')].filter(
      (box) => !box.closest('page-ad'),
    );
    const target =
      boxes.length && s.addedInto % 2 ? boxes[s.addedInto % boxes.length]! : document.getElementById('main')!;
    target.insertAdjacentHTML('beforeend', content);
    await page.settle();
    for (const record of observer.takeRecords())
      for (const added of record.addedNodes)
        if (
          added instanceof HTMLElement &&
          added.tagName === 'PAGE-AD' &&
          !added.hasAttribute('sticky') &&
          !inserted.includes(added)
        )
          inserted.push(added);
    checkInvariants(inserted, manual, constraints, s.viewportHeight, 'round 2');
  }
  observer.disconnect();
  return { inserted: inserted.length };
}

describe('placement invariants', () => {
  it(
    'never more ads than maxAdCount, never two nearer than the spacing in force, never in a denied or excluded ancestor',
    async () => {
      let count = 0;
      let placed = 0;
      let withAds = 0;
      await fc.assert(
        fc.asyncProperty(scenarioArbitrary, async (s) => {
          count++;
          const { inserted } = await runScenario(s);
          placed += inserted;
          if (inserted) withAds++;
        }),
        { numRuns: RUNS_HERE, seed: SEED, endOnFailure: !IS_LONG_RUN },
      );
      expect(count).toBe(RUNS_HERE);
      // The generator must reach placements, not only refusals.
      expect(withAds, `${withAds} of ${count} inputs placed ads`).toBeGreaterThan(RUNS_HERE / 5);
      if (IS_LONG_RUN || process.env.FUZZ_SEED) {
        console.log(
          `fuzz placement invariants: ${count} inputs (${withAds} with ads, ${placed} ads), seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS_HERE})`,
        );
      }
    },
    IS_LONG_RUN ? 3_600_000 : 60_000,
  );

  // Found by the long run (FUZZ_SEED=20261124, input 304, shrunk), when margins were kept below
  // the spacing for the property: P1 puts an ad as the first child of section.a with a 150 px
  // bottom margin, at the same y as P2's point before that section. The plan ranked the
  // anchor's point after the ad at that y, so it measured P2 150 px below the first ad; in the
  // DOM, P2's ad goes before the section, right above the first one: 0 px apart, spacing 150.
  // Fixed: a candidate at the y of one of the round's ads is too near unless the spacing is 0.
  it('places no ad right before an enclosing anchor whose first child took an ad with a large bottom margin', async () => {
    const excluded = (height: number): Node => ({
      kind: 'leaf',
      tag: 'p',
      className: 'a',
      height,
      text: 0,
      isExcluded: true,
    });
    await runScenario({
      header: 0,
      body: [excluded(0), excluded(107), excluded(0)],
      footer: [],
      added: [
        excluded(43),
        { kind: 'box', tag: 'section', className: 'a', isExcluded: false, children: [excluded(0)] },
      ],
      addedInto: 0,
      config: {
        placements: [
          { anchor: { selector: '.a', all: true }, pos: 2, type: 1, style: { bot_m: 150 } },
          { anchor: { selector: '.a', all: true }, pos: 1, type: 1 },
        ],
      },
      viewportHeight: 150,
      viewportWidth: 1024,
      scrollTop: 0,
    } as Scenario);
  });
});
