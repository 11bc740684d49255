/**
 * The wait for `<page-geo>` (docs/decisions/consent-geo-wait.md), in the geo part: loaded only
 * when the page has a `<page-geo>` element, whose matched groups it waits for at most
 * GEO_TIMEOUT_SECONDS.
 */
import type { DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import { hasGeoSignalFields } from '../wire/consent-config.ts';

export const GEO_TIMEOUT_SECONDS = 5;

/**
 * The matched geo groups, or none after a `consent-geo-timeout` warning. `startSignals` runs
 * first when no `geoOverride` group of the config `json` sets a signal field: those signals need
 * not wait for the answer.
 */
export async function waitForGeoGroups(
  page: PageRuntime,
  report: (d: Diagnostic, level?: DiagnosticLevel) => void,
  json: unknown,
  startSignals: () => void,
): Promise<string[]> {
  if (!hasGeoSignalFields(json)) startSignals();
  const timeout = new Promise((resolve) => setTimeout(resolve, GEO_TIMEOUT_SECONDS * 1000));
  const geo = (await Promise.race([page.whenService('geo'), timeout])) as { matchedGroups: string[] } | undefined;
  if (!geo) report(diagnostic('consent-geo-timeout', `<page-geo> within ${GEO_TIMEOUT_SECONDS} s`, null), 'warn');
  return geo?.matchedGroups ?? [];
}
