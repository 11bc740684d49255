/**
 * The admin dashboard's auto-ads experiments (docs/server.md, "Ads experiments"): for one ads
 * client, each experiment's arms side by side, with page views, ads placed per page view,
 * viewable impressions per page view and its 95% confidence interval, and the mean layout shift,
 * as `GET /admin/api/ads-experiments/<client>` computes them.
 */
import { element } from './dom.ts';

type Interval = { readonly low: number; readonly high: number };

export type ArmSummary = {
  readonly arm: string;
  readonly pageViews: number;
  readonly adsPlacedPerView: number;
  readonly viewablePerView: number;
  readonly viewableInterval: Interval | null;
  readonly meanLayoutShift: number;
};

export type ExperimentSummary = { readonly experiment: string; readonly arms: readonly ArmSummary[] };

const ROWS: readonly (readonly [string, (arm: ArmSummary) => string])[] = [
  ['Page views', (arm) => String(arm.pageViews)],
  ['Ads placed per page view', (arm) => arm.adsPlacedPerView.toFixed(2)],
  ['Viewable impressions per page view', (arm) => arm.viewablePerView.toFixed(2)],
  [
    '95% confidence interval',
    (arm) =>
      arm.viewableInterval
        ? arm.viewableInterval.low.toFixed(2) + ' to ' + arm.viewableInterval.high.toFixed(2)
        : 'needs 2 page views',
  ],
  ['Mean layout shift (CLS)', (arm) => arm.meanLayoutShift.toFixed(3)],
];

/** One table per experiment: a column per arm, a row per figure. */
export function experimentTable({ experiment, arms }: ExperimentSummary): HTMLTableElement {
  const table = element('table', { className: 'experiment' });
  table.createCaption().textContent = 'Experiment ' + experiment;
  const head = table.createTHead().insertRow();
  head.append(element('th', { scope: 'col', textContent: 'Arm' }));
  for (const arm of arms) head.append(element('th', { scope: 'col', textContent: arm.arm }));
  const body = table.createTBody();
  for (const [title, value] of ROWS) {
    const row = body.insertRow();
    row.append(element('th', { scope: 'row', textContent: title }));
    for (const arm of arms) row.insertCell().textContent = value(arm);
  }
  return table;
}
