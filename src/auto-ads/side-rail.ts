/**
 * The side rails of docs/auto-ads.md, "Side rails": on viewports at least 1200 x 650, one fixed
 * ad in the left and/or right margin beside the main content, where that margin is wide enough
 * for the ad (300 or 160 px and a gap on each side), vertically centred, 600 px high. A rail
 * never covers the main content, has a close button (closed for the page view), goes when the
 * window narrows or shortens and comes back when there is room again. Rails count toward `maxAdCount`, not toward the spacing of in-content ads. Loaded as the
 * part `page-auto-ads-side-rail`; choices: docs/decisions/vignettes-and-side-rails.md.
 */
import { type RailSide, readFormat, readSideRail } from '../wire/auto-ads-formats.ts';
import { mergeAttributes } from './attributes.ts';
import type { FormatOptions } from './parts.ts';
import { countAds, findMainContent } from './density.ts';

export const RAIL_MIN_WIDTH = 1200;
export const RAIL_MIN_HEIGHT = 650;
export const RAIL_HEIGHT = 600;
/** The room kept free on each side of a rail, in px. */
export const RAIL_GAP = 8;

/** The first of `widths` that fits a margin of `margin` px with the gap on both sides, else undefined. */
export function fitRail(margin: number, widths: readonly number[]): number | undefined {
  return widths.find((width) => width + 2 * RAIL_GAP <= margin);
}

/** Starts the rails and keeps them in step with the window's size. */
export function startSideRails(options: FormatOptions): void {
  const { page, shared, markers, maximumAdCount, isActive, report } = options;
  const parsed = readFormat(options.formats, 'sideRail', readSideRail);
  for (const d of parsed.diagnostics) report(d, 'warn');
  const spec = parsed.value;
  if (!spec) return;
  const { viewport } = page;
  const rails = new Map<RailSide, HTMLElement>();
  const closed = new Set<RailSide>();

  const insert = (side: RailSide, width: number) => {
    const ad = document.createElement('page-ad');
    const attributes = mergeAttributes(
      { layout: 'fixed', height: String(RAIL_HEIGHT) },
      shared,
      spec.attributes,
      markers,
    );
    for (const [name, value] of Object.entries(attributes)) ad.setAttribute(name, value);
    ad.removeAttribute('sticky');
    ad.setAttribute('width', String(width));
    ad.setAttribute('data-side-rail', side);
    ad.setAttribute('role', 'complementary');
    ad.setAttribute('aria-label', attributes['data-label'] ?? 'Advertisement');
    document.body.append(ad);
    Object.assign(ad.style, {
      position: 'fixed',
      top: `calc(50% - ${RAIL_HEIGHT / 2}px)`,
      [side]: `${RAIL_GAP}px`,
      zIndex: '2147483000',
    });
    const close = document.createElement('button');
    close.type = 'button';
    close.setAttribute('aria-label', 'Close ad');
    close.textContent = '×';
    close.style.cssText =
      'position:absolute;top:0;right:0;z-index:1;min-width:32px;min-height:32px;font:20px/1 sans-serif';
    close.addEventListener('click', () => {
      closed.add(side);
      rails.delete(side);
      ad.remove();
    });
    ad.append(close);
    rails.set(side, ad);
  };

  const update = () => {
    let wanted: [RailSide, number | undefined][] = [];
    viewport.measure(() => {
      const isRoomy = viewport.getWidth() >= RAIL_MIN_WIDTH && viewport.getHeight() >= RAIL_MIN_HEIGHT;
      const box = findMainContent(document).getBoundingClientRect();
      const margins = { left: box.left, right: document.documentElement.clientWidth - box.right };
      let count = document.querySelectorAll('page-ad:not([sticky]):not([data-side-rail])').length;
      wanted = spec.sides.map((side) => {
        const width = isRoomy && isActive() && !closed.has(side) ? fitRail(margins[side], spec.widths) : undefined;
        const current = rails.get(side);
        // A rail already shown keeps its place in the count.
        if (width !== undefined && !current && count >= maximumAdCount) return [side, undefined];
        if (width !== undefined) count++;
        return [side, width];
      });
    });
    viewport.mutate(() => {
      // Counted again: in-content ads planned in the same frame may have gone in since the measure.
      let count = countAds(document);
      for (const [side, width] of wanted) {
        const current = rails.get(side);
        if (current && current.getAttribute('width') !== String(width)) {
          current.remove();
          rails.delete(side);
          count--;
        }
        if (width !== undefined && !rails.has(side) && count < maximumAdCount) {
          insert(side, width);
          count++;
        }
      }
    });
  };
  update();
  viewport.onResize(update);
}
