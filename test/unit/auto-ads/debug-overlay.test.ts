// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { PlacementSpec } from '../../../src/wire/auto-ads-config.ts';
import { describeRun, drawDebugOverlay, isDebugRequested } from '../../../src/auto-ads/debug-overlay.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import type { Candidate } from '../../../src/auto-ads/placement.ts';
import { createFakePage } from './fake-page.ts';

const placement = (selector: string): PlacementSpec => ({
  anchor: { selector, index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
  position: 'after',
  marginTop: 0,
  marginBottom: 0,
  attributes: {},
});

afterEach(() => {
  document.body.innerHTML = '';
  document.querySelector('page-ads-debug')?.remove();
});

describe('debug-overlay', () => {
  it('is requested by #page-ads-debug in the URL only', () => {
    expect(isDebugRequested({ hash: '#page-ads-debug' } as Location)).toBe(true);
    expect(isDebugRequested({ hash: '#top' } as Location)).toBe(false);
  });

  it('describes counts, the constraints in force and placements that matched nothing', () => {
    const missing = placement('.comments p');
    const text = describeRun(
      { adsPlaced: 2, totalAdsOnPage: 3, candidates: [], unmatched: [missing] },
      DEFAULT_CONSTRAINTS,
      [placement('p'), missing],
    );
    expect(text.split('\n')).toEqual([
      'page-auto-ads debug',
      'ads: 3 on page, 2 placed, max 8',
      'spacing: 1vp, from 3 ads 2vp, from 6 ads 3vp',
      'no anchor: placement 2 (.comments p)',
    ]);
  });

  it('draws one labelled line per connected candidate at its position, under <html>', async () => {
    document.body.innerHTML = '<p id="a" data-h="100"></p><p id="b" data-h="300"></p>';
    const page = createFakePage();
    const spec = placement('p');
    const [a, b] = [...document.querySelectorAll('p')];
    const gone = document.createElement('p');
    const candidates: Candidate[] = [
      { placement: spec, anchor: a!, outcome: 'placed' },
      { placement: spec, anchor: b!, outcome: 'too-near' },
      { placement: spec, anchor: gone, outcome: 'too-near' },
    ];
    drawDebugOverlay(page, { adsPlaced: 1, totalAdsOnPage: 1, candidates, unmatched: [] }, 'panel text', [spec]);
    await page.settle();
    const overlay = document.documentElement.querySelector(':scope > page-ads-debug');
    const marks = [...(overlay?.querySelectorAll('div') ?? [])];
    expect(marks.map((mark) => [mark.style.top, mark.textContent?.trim()])).toEqual([
      ['100px', 'P1 placed'],
      ['400px', 'P1 too-near'],
    ]);
    expect(overlay?.querySelector('pre')?.textContent).toBe('panel text');
  });

  it('replaces the previous overlay', async () => {
    const page = createFakePage();
    const result = { adsPlaced: 0, totalAdsOnPage: 0, candidates: [], unmatched: [] };
    drawDebugOverlay(page, result, 'first', []);
    drawDebugOverlay(page, result, 'second', []);
    await page.settle();
    expect([...document.querySelectorAll('page-ads-debug pre')].map((pre) => pre.textContent)).toEqual(['second']);
  });
});
