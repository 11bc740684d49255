// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { PlacementSpec, Position } from '../../../src/wire/auto-ads-config.ts';
import { type Candidate, estimateY, planRound, type Round } from '../../../src/auto-ads/placement.ts';
import type { PageBox } from '../../../src/runtime/types.ts';

const spec = (position: Position = 'after', patch: Partial<PlacementSpec> = {}): PlacementSpec => ({
  anchor: { selector: 'p', index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
  position,
  marginTop: 0,
  marginBottom: 0,
  attributes: {},
  ...patch,
});

const px = (value: number) => ({ value, unit: 'px' }) as const;

/** Candidates on connected 100 px elements whose boxes are scripted by top; page ads likewise. */
function scripted(tops: number[], placement = spec()) {
  const boxes = new Map<Element, PageBox>();
  const element = (top: number, height: number) => {
    const node = document.body.appendChild(document.createElement('p'));
    boxes.set(node, { top, bottom: top + height, left: 0, right: 300, width: 300, height });
    return node;
  };
  const candidates: Candidate[] = tops.map((top) => ({ placement, anchor: element(top, 100), outcome: 'pending' }));
  const main = element(0, 10_000);
  const round = (
    patch: Partial<Omit<Round, 'ads'>> & { ads?: [number, number][]; scrollTop?: number } = {},
  ): Round => ({
    candidates,
    viewport: {
      getPageBox: (node) => boxes.get(node)!,
      getScrollTop: () => patch.scrollTop ?? 0,
      getHeight: () => 500,
    },
    constraints: { initialMinimumSpacing: px(500), subsequentMinimumSpacing: [], maximumAdCount: 8 },
    adHeight: 250,
    main,
    ...patch,
    ads: (patch.ads ?? []).map(([top, height]) => element(top, height)),
  });
  return { candidates, round };
}

const outcomes = (candidates: readonly Candidate[]) => candidates.map((c) => c.outcome);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('placement', () => {
  it.each([
    ['before', 15],
    ['first-child', 15],
    ['last-child', 115],
    ['after', 115],
  ] as const)('estimates %s at the anchor %s edge', (position, y) => {
    expect(estimateY(position, { top: 15, bottom: 115 })).toBe(y);
  });

  it('places every candidate in list order while nothing is near', () => {
    const { candidates, round } = scripted([3000, 1000]);
    const plan = planRound(round());
    expect(plan.placed).toEqual([candidates[0], candidates[1]]);
    expect(plan).toMatchObject({ adHeight: 250, totalAdsOnPage: 2 });
  });

  it('marks candidates above the scroll position and inside the visible viewport', () => {
    const { candidates, round } = scripted([100, 650, 699, 700]);
    planRound(round({ scrollTop: 300 }));
    // y is the bottom edge: 200 (above), 750 and 799 (inside 300-800), 800 (at the viewport bottom).
    expect(outcomes(candidates)).toEqual(['above-scroll', 'in-viewport', 'in-viewport', 'placed']);
  });

  it('marks candidates too near an ad, with equality allowed', () => {
    const { candidates, round } = scripted([1000, 1401]);
    // The page ad spans 1600-1850: candidate 0 (y 1100) is 500 px away, candidate 1 (y 1501) 99.
    planRound(round({ ads: [[1600, 250]] }));
    expect(outcomes(candidates)).toEqual(['placed', 'too-near']);
  });

  it('moves later positions by the ads it places, margins included', () => {
    const { candidates, round } = scripted([1000, 1600], spec('after', { marginTop: 10, marginBottom: 40 }));
    // Candidate 0's ad takes 10 + 250 + 40 px at y 1100: candidate 1 moves from 1700 to 2000,
    // 640 px below that ad's box (1110-1360); measured once, it would be 340 px.
    planRound(
      round({ constraints: { initialMinimumSpacing: px(640), subsequentMinimumSpacing: [], maximumAdCount: 8 } }),
    );
    expect(outcomes(candidates)).toEqual(['placed', 'placed']);
    for (const candidate of candidates) candidate.outcome = 'pending';
    planRound(
      round({ constraints: { initialMinimumSpacing: px(641), subsequentMinimumSpacing: [], maximumAdCount: 8 } }),
    );
    expect(outcomes(candidates)).toEqual(['placed', 'too-near']);
  });

  it('moves the page ads below an ad it places', () => {
    const { candidates, round } = scripted([1000, 1900]);
    // The page ad at 1800 moves to 2050 once an ad grows at 1100; candidate 1 (y 2000 + 250) is 200 px below it, not 450.
    planRound(
      round({
        ads: [[1800, 0]],
        constraints: { initialMinimumSpacing: px(300), subsequentMinimumSpacing: [], maximumAdCount: 8 },
      }),
    );
    expect(outcomes(candidates)).toEqual(['placed', 'too-near']);
  });

  it('applies the spacing for the number of ads placed so far', () => {
    const { candidates, round } = scripted([1000, 1700, 2500]);
    // 1 ad: 300 px; from 2 ads: 1000 px.
    const constraints = {
      initialMinimumSpacing: px(300),
      subsequentMinimumSpacing: [{ adCount: 2, spacing: px(1000) }],
      maximumAdCount: 8,
    };
    planRound(round({ constraints }));
    expect(outcomes(candidates)).toEqual(['placed', 'placed', 'too-near']);
  });

  it('marks the next candidate max-count once the page holds maxAdCount ads and reads no further', () => {
    const { candidates, round } = scripted([1000, 3000, 5000]);
    const plan = planRound(
      round({
        ads: [[9000, 1]],
        constraints: { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 2 },
      }),
    );
    expect(outcomes(candidates)).toEqual(['placed', 'max-count', 'pending']);
    expect(plan.totalAdsOnPage).toBe(2);
  });

  it('keeps the density within 30%, the main content growing with the ads inside it', () => {
    const { candidates, round } = scripted([1000, 2000, 3000]);
    const free = { initialMinimumSpacing: px(0), subsequentMinimumSpacing: [], maximumAdCount: 8 };
    // Ads of 2,000 px outside the 10,000 px main content: 2,000 <= 30% of 12,000, 4,000 > 30% of 12,000.
    const outside = planRound(round({ density: { sticky: null }, adHeight: 2000, constraints: free }));
    expect(outcomes(candidates)).toEqual(['placed', 'density', 'density']);
    expect(outside.density).toEqual({ adHeight: 2000, contentHeight: 10_000 });
    // Inside it, the content grows too: 4,000 <= 30% of 14,000, 6,000 > 30% of 16,000.
    const main = round().main;
    for (const candidate of candidates) {
      main.append(candidate.anchor);
      candidate.outcome = 'pending';
    }
    const inside = planRound(round({ density: { sticky: null }, adHeight: 2000, constraints: free }));
    expect(outcomes(candidates)).toEqual(['placed', 'placed', 'density']);
    expect(inside.density).toEqual({ adHeight: 4000, contentHeight: 14_000 });
  });

  it('never revisits settled candidates', () => {
    const { candidates, round } = scripted([1000]);
    candidates[0]!.outcome = 'too-near';
    expect(planRound(round()).placed).toEqual([]);
  });
});
