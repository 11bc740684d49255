import { describe, expect, it } from 'vitest';
import type { PlacementSpec, Position } from '../../../src/wire/auto-ads-config.ts';
import { type Candidate, estimateY, pickCandidate, type Round } from '../../../src/auto-ads/placement.ts';

const spec = (position: Position = 'after'): PlacementSpec => ({
  anchor: { selector: 'p', index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
  position,
  marginTop: 0,
  marginBottom: 0,
  attributes: {},
});

/** Candidates on connected elements whose boxes are scripted by top. */
function scripted(tops: number[], position: Position = 'after') {
  const boxes = new Map<Element, { top: number; bottom: number }>();
  const candidates: Candidate[] = tops.map((top) => {
    const anchor = document.body.appendChild(document.createElement('p'));
    boxes.set(anchor, { top, bottom: top + 100 });
    return { placement: spec(position), anchor, outcome: 'pending' };
  });
  const round = (patch: Partial<Round> = {}): Round => ({
    candidates,
    boxOf: (element) => boxes.get(element)!,
    ads: [],
    scrollTop: 0,
    viewportHeight: 500,
    minimumSpacing: 500,
    maximumAdCount: 8,
    adHeight: 250,
    ...patch,
  });
  return { candidates, round };
}

describe('placement', () => {
  it.each([
    ['before', 15],
    ['first-child', 15],
    ['last-child', 115],
    ['after', 115],
  ] as const)('estimates %s at the anchor %s edge', (position, y) => {
    expect(estimateY(position, { top: 15, bottom: 115 })).toBe(y);
  });

  it('picks the first candidate in list order when nothing is near', () => {
    const { candidates, round } = scripted([3000, 1000]);
    expect(pickCandidate(round())).toBe(candidates[0]);
    expect(candidates.map((c) => c.outcome)).toEqual(['pending', 'pending']);
    expect(candidates[0]?.y).toBe(3100);
  });

  it('marks candidates above the scroll position and passes over them', () => {
    const { candidates, round } = scripted([100, 2000]);
    expect(pickCandidate(round({ scrollTop: 300 }))).toBe(candidates[1]);
    expect(candidates[0]?.outcome).toBe('above-scroll');
  });

  it('marks candidates inside the visible viewport and passes over them', () => {
    const { candidates, round } = scripted([200, 699, 700]);
    expect(pickCandidate(round({ scrollTop: 300 }))).toBe(candidates[2]);
    expect(candidates.map((c) => c.outcome)).toEqual(['in-viewport', 'in-viewport', 'pending']);
  });

  it('keeps a candidate exactly at the viewport bottom', () => {
    const { candidates, round } = scripted([700]);
    expect(pickCandidate(round({ scrollTop: 300 }))).toBe(candidates[0]);
    expect(candidates[0]?.y).toBe(800);
  });

  it('marks candidates too near an ad, with equality allowed', () => {
    const { candidates, round } = scripted([1000, 1401]);
    // The ad spans 1600-1850: candidate 0 (y 1100) is 500 px away, candidate 1 (y 1501) 99.
    const picked = pickCandidate(round({ ads: [{ top: 1600, bottom: 1850 }], minimumSpacing: 500 }));
    expect(picked).toBe(candidates[0]);
    candidates[0]!.outcome = 'placed';
    expect(pickCandidate(round({ ads: [{ top: 1600, bottom: 1850 }], minimumSpacing: 500 }))).toBeUndefined();
    expect(candidates[1]?.outcome).toBe('too-near');
  });

  it('settles nothing beyond the picked candidate', () => {
    const { candidates, round } = scripted([1000, 1000, 1000]);
    pickCandidate(round());
    expect(candidates.map((c) => c.outcome)).toEqual(['pending', 'pending', 'pending']);
  });

  it('marks every pending candidate max-count once the page holds maxAdCount ads', () => {
    const { candidates, round } = scripted([1000, 3000]);
    const ads = [{ top: 0, bottom: 1 }, { top: 9000, bottom: 9001 }];
    expect(pickCandidate(round({ ads, maximumAdCount: 2 }))).toBeUndefined();
    expect(candidates.map((c) => c.outcome)).toEqual(['max-count', 'max-count']);
  });

  it('marks a candidate whose anchor left the document no-anchor', () => {
    const { candidates, round } = scripted([1000, 3000]);
    candidates[0]?.anchor.remove();
    expect(pickCandidate(round())).toBe(candidates[1]);
    expect(candidates[0]?.outcome).toBe('no-anchor');
  });

  it('never revisits settled candidates', () => {
    const { candidates, round } = scripted([1000]);
    candidates[0]!.outcome = 'refused';
    expect(pickCandidate(round())).toBeUndefined();
  });
});
