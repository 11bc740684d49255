/**
 * The text report's lines for a journey's vendors' view (the strings decoded, what Prebid's
 * rules would allow, as a table) and for its prompt checks. Pure.
 */
import type { ApiRead, JourneyReport, PrebidRow, PromptAccess, SignalsView } from './report.ts';

const ids = (list: readonly number[]) => (list.length ? list.join(', ') : 'none');
const yesNo = (value: boolean) => (value ? 'yes' : 'no');

function status<T>(read: ApiRead<T>, name: string): string | null {
  if (read.status === 'read' && read.value) return null;
  if (read.status === 'none') return `${name}: not on the page`;
  return `${name}: ${read.status}${read.detail ? ` (${read.detail})` : ''}`;
}

/** The decoded strings, one line per API, and `__tcfapi`'s timing. */
export function stringLines(view: SignalsView): string[] {
  const lines: string[] = [];
  const tc = view.tcf.value;
  lines.push(
    tc
      ? `TC: CMP ${tc.cmpId} v${tc.cmpVersion}, policy ${tc.policyVersion}, gdprApplies ${String(tc.gdprApplies)}, purposes ${ids(tc.purposeConsents)}, LI ${ids(tc.purposeLegitimateInterests)}, special features ${ids(tc.specialFeatureOptins)}, vendors ${ids(tc.vendorConsents)}, vendor LI ${ids(tc.vendorLegitimateInterests)}, disclosed ${tc.disclosedVendors ? ids(tc.disclosedVendors) : 'no segment'}, restrictions ${tc.publisherRestrictions.map((r) => `purpose ${r.purpose} type ${r.type} for ${ids(r.vendors)}`).join('; ') || 'none'}`
      : (status(view.tcf, '__tcfapi') ?? ''),
  );
  if (tc?.addtlConsent) lines.push(`AC: ${tc.addtlConsent}`);
  const gpp = view.gpp.value;
  lines.push(
    gpp
      ? `GPP: ${gpp.gppString}, applicable ${ids(gpp.applicableSections)}, sections ${gpp.sections.map((section) => `${section.name} (${section.id})`).join(', ') || 'none'}`
      : (status(view.gpp, '__gpp') ?? ''),
  );
  const usp = view.usp.value;
  lines.push(
    usp
      ? `USP: ${usp.uspString} (notice ${usp.notice}, opt-out of sale ${usp.optOutSale}, LSPA ${usp.lspa})`
      : (status(view.usp, '__uspapi') ?? ''),
  );
  const first = view.tcfFirstAnswerMs;
  if (view.tcf.status !== 'none' || first !== null)
    lines.push(
      `__tcfapi: first answer ${first === null ? 'none while the page loaded' : `${first} ms`}, tcloaded ${view.tcLoadedMs === null ? 'never' : `${view.tcLoadedMs} ms`} after the page's response`,
    );
  return lines.filter(Boolean);
}

const rowLine = (row: PrebidRow) =>
  `    ${row.vendor === null ? 'any vendor' : `vendor ${row.vendor}`}`.padEnd(18) +
  `${yesNo(row.transmitEids).padEnd(14)}${yesNo(row.syncUser).padEnd(10)}${yesNo(row.fetchBids).padEnd(11)}${row.deniedBy.join(', ')}`;

function prebidLines(rows: readonly PrebidRow[]): string[] {
  if (!rows.length) return [];
  return [
    "    Prebid (tcfControl, gppControl_usnat; see the report's decision record for the rules):",
    `${'    vendor'.padEnd(18)}${'transmitEids'.padEnd(14)}${'syncUser'.padEnd(10)}${'fetchBids'.padEnd(11)}denied by`,
    ...rows.slice(0, 40).map(rowLine),
    ...(rows.length > 40 ? [`    and ${rows.length - 40} more vendors (JSON report)`] : []),
  ];
}

/** axe-core's result per layer and the keyboard walk, one line each. */
export function promptLines(access: PromptAccess): string[] {
  const layers = access.layers.map(
    (layer) =>
      `axe-core on the ${layer.layer} layer (${layer.frame === 'page' ? 'inline prompt' : `frame ${layer.frame}`}): ${layer.violations.length ? layer.violations.map((v) => v.rule).join(', ') : 'no violation'}`,
  );
  const walk = access.keyboard;
  const keyboard = walk
    ? `keyboard: ${walk.controls.length - walk.unreached.length} of ${walk.controls.length} controls reached by Tab${walk.isModal ? `, modal, focus ${walk.escapedTo.length ? 'escaped' : 'held'}` : ''}${walk.focusAfterClose === null ? '' : `, focus after closing on ${walk.focusAfterClose}`}`
    : 'keyboard: not walked';
  return [...layers, ...(access.error ? [access.error] : []), keyboard];
}

/** The lines under a journey's findings; empty when it has neither view. */
export function vendorsViewLines(journey: JourneyReport): string[] {
  const lines: string[] = [];
  if (journey.prompt) lines.push('  prompt:', ...promptLines(journey.prompt).map((line) => `    ${line}`));
  if (journey.signals)
    lines.push(
      "  vendors' view:",
      ...stringLines(journey.signals).map((line) => `    ${line}`),
      ...prebidLines(journey.signals.prebid),
    );
  return lines;
}
