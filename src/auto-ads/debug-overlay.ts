/**
 * The debug overlay (`#page-ads-debug` in the URL): a line at every candidate position with
 * its outcome, and a panel with the constraints in force. Absolutely positioned under
 * `<html>`, so it moves no content and the re-scan never sees it.
 */
import type { PageRuntime } from '../runtime/index.ts';
import type { PlacementSpec } from '../wire/auto-ads-config.ts';
import { estimateY } from './placement.ts';
import type { Constraints, Spacing } from '../wire/auto-ads-constraints.ts';
import type { StrategyResult } from './strategy.ts';

const COLORS: Record<string, string> = { placed: '#080', 'too-near': '#d60', density: '#80c', excluded: '#06c' };
const STYLE = 'position:absolute;z-index:2147483647;pointer-events:none;font:bold 12px/16px monospace;';
const format = (spacing: Spacing) => spacing.value + spacing.unit;

export function isDebugRequested(location: Location): boolean {
  return location.hash.includes('page-ads-debug');
}

/** The panel: counts, the constraints in force, placements whose anchor matched nothing. */
export function describeRun(
  result: StrategyResult,
  constraints: Constraints,
  placements: readonly PlacementSpec[],
): string {
  const rules = constraints.subsequentMinimumSpacing.map(
    (rule) => `, from ${rule.adCount} ads ${format(rule.spacing)}`,
  );
  return [
    'page-auto-ads debug',
    `ads: ${result.totalAdsOnPage} on page, ${result.adsPlaced} placed, max ${constraints.maximumAdCount}`,
    `spacing: ${format(constraints.initialMinimumSpacing)}${rules.join('')}`,
    ...(result.density === undefined
      ? []
      : [`density: ${Math.round(result.density * 100)}% of the main content (limit 30%)`]),
    ...(result.candidates.some((candidate) => candidate.outcome === 'excluded')
      ? ['excluded: anchors inside data-no-auto-ads']
      : []),
    ...result.unmatched.map(
      (placement) => `no anchor: placement ${placements.indexOf(placement) + 1} (${placement.anchor.selector})`,
    ),
  ].join('\n');
}

/** The boxes of the text inside `element` (none without an element). */
function textBoxes(element: Element | null): DOMRectList {
  const range = document.createRange();
  if (element) range.selectNodeContents(element);
  return range.getClientRects();
}

/**
 * Replaces the overlay: a line per candidate whose anchor is still in the document, with its
 * `P<n> <outcome>` label (14 px high) just above the line, in the gap between the blocks; when
 * the text above reaches into that band, the label moves right, past the end of the text's last
 * line. Labels of placement `n` start `(n - 1) * 150` px further right, so candidates of several
 * placements at one spot stay readable.
 */
export function drawDebugOverlay(
  page: PageRuntime,
  result: StrategyResult,
  panelText: string,
  placements: readonly PlacementSpec[],
): void {
  const { viewport } = page;
  viewport.measure(() => {
    const marks = result.candidates
      .filter(({ anchor }) => anchor.isConnected)
      .map(({ anchor, placement, outcome }) => {
        const box = viewport.getPageBox(anchor);
        const isBefore = placement.position === 'before' || placement.position === 'first-child';
        const top = estimateY(placement.position, box) - scrollY;
        const above = textBoxes(isBefore ? anchor.previousElementSibling : anchor);
        const last = above[above.length - 1];
        const index = placements.indexOf(placement);
        const color = COLORS[outcome] ?? '#666';
        const mark = document.createElement('div');
        mark.style.cssText = `${STYLE}top:${top + scrollY}px;left:${box.left}px;width:${box.width}px;border-top:3px dashed ${color}`;
        mark.innerHTML = `<span style="${STYLE}line-height:14px;white-space:pre;background:${color};color:#fff;top:-18px;left:${index * 150 + (last && last.bottom > top - 15 ? last.right + 8 - box.left : 0)}px"> P${index + 1} ${outcome} </span>`;
        return mark;
      });
    viewport.mutate(() => {
      document.querySelector('page-ads-debug')?.remove();
      const overlay = document.createElement('page-ads-debug');
      const panel = document.createElement('pre');
      overlay.style.cssText = STYLE + 'top:0;left:0';
      panel.style.cssText =
        STYLE + 'position:fixed;top:8px;right:8px;margin:0;padding:8px;background:#fff;color:#000;border:2px solid';
      panel.textContent = panelText;
      overlay.append(...marks, panel);
      document.documentElement.append(overlay);
    });
  });
}
