// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { densityOf, findMainContent, isWithinDensity } from '../../../src/auto-ads/density.ts';

describe('density', () => {
  it.each([
    // 0 + 250 <= 0.3 * (1000 + 250) = 375
    [{ adHeight: 0, contentHeight: 1000 }, 250, true],
    // 250 + 250 = 500 > 0.3 * 1250 = 375
    [{ adHeight: 250, contentHeight: 1000 }, 250, false],
    // exactly at the limit: 150 + 150 = 300 = 0.3 * (850 + 150)
    [{ adHeight: 150, contentHeight: 850 }, 150, true],
    [{ adHeight: 150, contentHeight: 849 }, 150, false],
    [{ adHeight: 0, contentHeight: 0 }, 100, false],
  ])('keeps %o with one more ad of %i px within 30%: %s', (density, height, expected) => {
    expect(isWithinDensity(density, height)).toBe(expected);
  });

  it('reports the share of the content taken by ads', () => {
    expect(densityOf({ adHeight: 300, contentHeight: 1200 })).toBe(0.25);
    expect(densityOf({ adHeight: 300, contentHeight: 0 })).toBe(0);
  });

  it('finds main, else role=main, else the first article, else body', () => {
    document.body.innerHTML = '<article id="a"></article><div role="main" id="r"></div><main id="m"></main>';
    expect(findMainContent(document).id).toBe('r');
    document.body.innerHTML = '<article id="a"></article><main id="m"></main>';
    expect(findMainContent(document).id).toBe('m');
    document.body.innerHTML = '<article id="a"></article><article id="b"></article>';
    expect(findMainContent(document).id).toBe('a');
    document.body.innerHTML = '<div></div>';
    expect(findMainContent(document)).toBe(document.body);
  });
});
