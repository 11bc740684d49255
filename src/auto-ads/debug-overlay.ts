/**
 * The debug overlay (`#page-ads-debug` in the URL): a line at every candidate position with
 * its outcome, and a panel with the constraints in force. Absolutely positioned under
 * `<html>`, so it moves no content and the re-scan never sees it.
 */
import type { PageRuntime } from '../runtime/types.ts';
import { estimateY, type Outcome } from './placement.ts';
import type { Spacing } from './spacing.ts';
import type { StrategyResult } from './strategy.ts';
import type { Constraints } from './spacing.ts';
import type { PlacementSpec } from './config.ts';

const COLORS: Record<Outcome, string> = {
  placed: '#080',
  'too-near': '#d60',
  'above-scroll': '#777',
  'in-viewport': '#777',
  refused: '#c00',
  'denied-ancestor': '#80c',
  'no-anchor': '#000',
  'max-count': '#06c',
  pending: '#777',
};

const STYLE = 'position:absolute;z-index:2147483647;pointer-events:none;font:bold 12px/16px monospace;';
const format = (spacing: Spacing) => spacing.value + spacing.unit;

export function isDebugRequested(location: Location): boolean {
  return location.hash.includes('page-ads-debug');
}

/** Lines of the panel: counts, the constraints in force, placements that matched nothing. */
export function describeRun(result: StrategyResult, constraints: Constraints, placements: readonly PlacementSpec[]): string {
  const rules = constraints.subsequentMinimumSpacing.map((rule) => `, from ${rule.adCount} ads ${format(rule.spacing)}`);
  const counts: Record<string, number> = {};
  for (const { outcome } of result.candidates) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return [
    'page-auto-ads debug',
    `ads: ${result.totalAdsOnPage} on page, ${result.adsPlaced} placed, max ${constraints.maximumAdCount}`,
    `spacing: ${format(constraints.initialMinimumSpacing)}${rules.join('')}`,
    ...Object.entries(counts).map(([outcome, count]) => `${outcome}: ${count}`),
    ...result.unmatched.map((placement) => `no anchor: placement ${placements.indexOf(placement) + 1} (${placement.anchor.selector})`),
  ].join('\n');
}

export function drawDebugOverlay(page: PageRuntime, result: StrategyResult, panelText: string, placements: readonly PlacementSpec[]): void {
  page.viewport.measure(() => {
    const marks = result.candidates.filter(({ anchor }) => anchor.isConnected).map((candidate) => {
      const box = page.viewport.getPageBox(candidate.anchor);
      const mark = document.createElement('div');
      const color = COLORS[candidate.outcome];
      mark.style.cssText = `${STYLE}top:${estimateY(candidate.placement.position, box)}px;left:${box.left}px;width:${box.width}px;border-top:3px dashed ${color}`;
      mark.innerHTML = `<span style="background:${color};color:#fff;padding:0 4px"></span>`;
      mark.firstChild!.textContent = `P${placements.indexOf(candidate.placement) + 1} ${candidate.outcome}`;
      return mark;
    });
    page.viewport.mutate(() => {
      document.querySelector('page-ads-debug')?.remove();
      const overlay = document.createElement('page-ads-debug');
      overlay.style.cssText = STYLE + 'top:0;left:0';
      const panel = document.createElement('pre');
      panel.style.cssText = `${STYLE}position:fixed;top:8px;right:8px;margin:0;padding:8px;background:#fffe;color:#000;border:2px solid #000`;
      panel.textContent = panelText;
      overlay.append(...marks, panel);
      document.documentElement.append(overlay);
    });
  });
}
