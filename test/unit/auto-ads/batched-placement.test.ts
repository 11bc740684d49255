// @vitest-environment happy-dom
/**
 * Property: the batched strategy (one measure, a plan that moves positions by the ads it places,
 * one mutate) places the same ads, at the same places, with the same outcomes, as the documented
 * sequential rule, which measures the page again after every insertion. Both run on generated
 * pages laid out by the block model of fake-page.ts; the sequential rule also submits each ad to
 * the runtime's change-size decision at zero height, as the per-ad strategy did, and every ad
 * must be one it applies.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrategy, type StrategyResult } from '../../../src/auto-ads/strategy.ts';
import { decideChangeSize } from '../../../src/runtime/change-size-decision.ts';
import type { Constraints, SpacingRule } from '../../../src/wire/auto-ads-constraints.ts';
import type { PlacementSpec, Position } from '../../../src/wire/auto-ads-config.ts';
import { createFakePage, pageBox } from './fake-page.ts';

type Block = {
  kind: 'p' | 'section' | 'ad';
  className: 'a' | 'b';
  height: number;
  children: number[];
  isExcluded: boolean;
};
type Scenario = {
  header: number;
  blocks: Block[];
  footer: number[];
  placements: { selector: string; position: Position }[];
  marginTop: number;
  marginBottom: number;
  constraints: Constraints;
  viewportHeight: number;
  viewportWidth: number;
  scrollTop: number;
  adHeight: number;
};

const SIDES: Position[] = ['before', 'after'];
const INSIDE: Position[] = ['first-child', 'last-child'];
/** Leaves (`data-h`) take ads beside them only: in the block model, their height ignores children. */
const PLACEMENTS = [
  ...['p', 'section', '.a', '.b', 'section > p', 'main > p', 'p.a', 'footer p', 'page-ad'].flatMap((selector) =>
    SIDES.map((position) => ({ selector, position })),
  ),
  ...['section', 'main', 'footer', 'section.b'].flatMap((selector) =>
    INSIDE.map((position) => ({ selector, position })),
  ),
];
const px = (value: number) => ({ value, unit: 'px' }) as const;

const block = fc.record({
  kind: fc.constantFrom('p', 'p', 'section', 'ad'),
  className: fc.constantFrom('a', 'b'),
  height: fc.integer({ min: 0, max: 400 }),
  children: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 4 }),
  isExcluded: fc.integer({ min: 0, max: 9 }).map((value) => value === 0),
}) as fc.Arbitrary<Block>;

/** Margins are zero or below every spacing in force (docs/decisions/auto-ads-batched-placement.md). */
const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    header: fc.integer({ min: 0, max: 600 }),
    blocks: fc.array(block, { minLength: 1, maxLength: 30 }),
    footer: fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 4 }),
    placements: fc.array(fc.constantFrom(...PLACEMENTS), { minLength: 1, maxLength: 3 }),
    hasMargins: fc.boolean(),
    marginTop: fc.integer({ min: 0, max: 40 }),
    marginBottom: fc.integer({ min: 0, max: 40 }),
    spacings: fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 1, maxLength: 3 }),
    counts: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 2 }),
    maximumAdCount: fc.integer({ min: 1, max: 12 }),
    viewportHeight: fc.integer({ min: 200, max: 900 }),
    viewportWidth: fc.constantFrom(375, 1024),
    scrollTop: fc.integer({ min: 0, max: 1500 }),
    adHeight: fc.integer({ min: 50, max: 300 }),
  })
  .map(({ hasMargins, marginTop, marginBottom, spacings, counts, maximumAdCount, ...rest }) => {
    const floor = hasMargins ? Math.max(marginTop, marginBottom) + 1 : 0;
    const [initial = 0, ...later] = spacings.map((spacing) => Math.max(spacing, floor));
    const rules: SpacingRule[] = counts
      .slice(0, later.length)
      .map((adCount, index) => ({ adCount, spacing: px(later[index]!) }));
    return {
      ...rest,
      marginTop: hasMargins ? marginTop : 0,
      marginBottom: hasMargins ? marginBottom : 0,
      constraints: {
        initialMinimumSpacing: px(initial),
        subsequentMinimumSpacing: rules.sort((a, b) => a.adCount - b.adCount),
        maximumAdCount,
      },
    };
  });

function render({ header, blocks, footer }: Scenario): string {
  const html = blocks.map((b, i) => {
    const excluded = b.isExcluded ? ' data-no-auto-ads' : '';
    if (b.kind === 'ad') return `<page-ad id="m${i}" data-h="${b.height}"></page-ad>`;
    if (b.kind === 'p') return `<p id="b${i}" class="${b.className}" data-h="${b.height}"${excluded}></p>`;
    const children = b.children
      .map((height, j) => `<p id="b${i}-${j}" class="${j % 2 ? 'a' : 'b'}" data-h="${height}"></p>`)
      .join('');
    return `<section id="b${i}" class="${b.className}"${excluded}>${children}</section>`;
  });
  const notes = footer.map((height, i) => `<p id="f${i}" data-h="${height}"></p>`).join('');
  return `<header id="h" data-h="${header}"></header><main id="main">${html.join('')}</main><footer id="foot">${notes}</footer>`;
}

const specsOf = (s: Scenario): PlacementSpec[] =>
  s.placements.map(({ selector, position }) => ({
    anchor: { selector, index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
    position,
    marginTop: s.marginTop,
    marginBottom: s.marginBottom,
    attributes: {},
  }));

const INSERT: Record<Position, (anchor: Element, ad: Element) => void> = {
  before: (anchor, ad) => anchor.before(ad),
  'first-child': (anchor, ad) => anchor.prepend(ad),
  'last-child': (anchor, ad) => anchor.append(ad),
  after: (anchor, ad) => anchor.after(ad),
};

function spacingFor({ initialMinimumSpacing, subsequentMinimumSpacing }: Constraints, count: number): number {
  let spacing = initialMinimumSpacing.value;
  for (const rule of subsequentMinimumSpacing) if (rule.adCount <= count) spacing = rule.spacing.value;
  return spacing;
}

const near = (y: number, box: { top: number; bottom: number }) =>
  y >= box.top && y <= box.bottom ? 0 : Math.min(Math.abs(y - box.top), Math.abs(y - box.bottom));

/**
 * The documented rule, one candidate at a time (as the per-ad strategy ran it): measure the page,
 * decide, insert at zero height out of flow, ask the change-size decision, grow in flow.
 */
function placeSequentially(s: Scenario): { outcomes: string[]; refusals: number } {
  const outcomes: string[] = [];
  let refusals = 0;
  const candidates = specsOf(s).flatMap((placement) =>
    [...document.querySelectorAll(placement.anchor.selector)].map((anchor) => ({ placement, anchor })),
  );
  for (const { placement, anchor } of candidates) {
    const label = `${anchor.id}:`;
    if (anchor.closest('[data-no-auto-ads]')) {
      outcomes.push(label + 'excluded');
      continue;
    }
    const ads = [...document.querySelectorAll('page-ad')].map(pageBox);
    if (ads.length >= s.constraints.maximumAdCount) {
      // The documented rule stops at the count: the rest of the page is not read.
      outcomes.push(label + 'max-count');
      break;
    }
    const box = pageBox(anchor);
    const y = placement.position === 'before' || placement.position === 'first-child' ? box.top : box.bottom;
    const main = pageBox(document.getElementById('main')!).height;
    const adTotal = ads.reduce((sum, ad) => sum + ad.height, 0);
    let outcome = 'placed';
    if (y < s.scrollTop) outcome = 'above-scroll';
    else if (y < s.scrollTop + s.viewportHeight) outcome = 'in-viewport';
    else if (ads.some((ad) => near(y, ad) < spacingFor(s.constraints, ads.length))) outcome = 'too-near';
    else if (s.viewportWidth < 768 && adTotal + s.adHeight > 0.3 * (main + s.adHeight)) outcome = 'density';
    outcomes.push(label + outcome);
    if (outcome !== 'placed') continue;
    const ad = document.createElement('page-ad');
    ad.style.position = 'absolute';
    INSERT[placement.position](anchor, ad);
    const decision = decideChangeSize({
      box: pageBox(ad),
      newHeight: s.adHeight,
      margins: { top: s.marginTop, bottom: s.marginBottom },
      viewportTop: s.scrollTop,
      viewportHeight: s.viewportHeight,
      documentHeight: pageBox(document.body).bottom,
      isDocumentHidden: false,
      msSinceInteraction: Number.POSITIVE_INFINITY,
    });
    if (decision !== 'apply') refusals++;
    Object.assign(ad.style, {
      position: '',
      height: `${s.adHeight}px`,
      marginTop: `${s.marginTop}px`,
      marginBottom: `${s.marginBottom}px`,
    });
  }
  return { outcomes, refusals };
}

/** Every ad in document order: where it is and its box. */
const adsOnPage = () =>
  [...document.querySelectorAll<HTMLElement>('page-ad')].map((ad) => {
    const { top, bottom } = pageBox(ad);
    return `${ad.id || 'auto'} after ${ad.previousElementSibling?.id ?? '-'} in ${ad.parentElement?.id} ${top}-${bottom}`;
  });

async function placeBatched(s: Scenario): Promise<{ outcomes: string[]; measureTasks: number }> {
  const page = createFakePage();
  Object.assign(page, { scrollTop: s.scrollTop, viewportHeight: s.viewportHeight, viewportWidth: s.viewportWidth });
  const runs: StrategyResult[] = [];
  createStrategy({
    page,
    placements: specsOf(s),
    constraints: s.constraints,
    attributes: { layout: 'fixed-height', height: '0', type: 'fake' },
    height: () => s.adHeight,
    onRun: (result) => runs.push(result),
  })(true);
  await page.settle();
  return {
    outcomes: (runs[0]?.candidates ?? []).map((c) => `${c.anchor.id}:${c.outcome}`),
    measureTasks: page.measureTasks,
  };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('batched placement', () => {
  it('places the same ads as the sequential rule, each one the change-size arbiter applies', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        document.body.innerHTML = render(s);
        const sequential = placeSequentially(s);
        const expected = adsOnPage();
        document.body.innerHTML = render(s);
        const batched = await placeBatched(s);
        expect(batched.outcomes).toEqual(sequential.outcomes);
        expect(adsOnPage()).toEqual(expected);
        expect(sequential.refusals).toBe(0);
        expect(batched.measureTasks).toBe(1);
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
