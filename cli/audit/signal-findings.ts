/**
 * Judges a journey's decoded strings (signals.ts) against its decision (docs/validator.md, "The
 * vendors' view"). Pure: each finding is `expected X, got Y`.
 *
 * - `audit-string-overgrant`: before a decision or after a reject, a TC string (where GDPR
 *   applies) with a purpose consent, a special feature opt-in or a vendor consent, a GPP
 *   `tcfeuv2`/`tcfcav1` section with a purpose consent; after a reject also a GPP US section
 *   that says the reader did not opt out (`SaleOptOut`, `SharingOptOut` or
 *   `TargetedAdvertisingOptOut` 2) or a US privacy string without the opt-out of sale (`N`).
 * - `audit-tc-no-disclosed-vendors`: a TC string without the DisclosedVendors segment.
 * - `audit-tcfapi-late`: `__tcfapi` first answered later than `TCFAPI_DEADLINE_MS` after the
 *   page's response started to arrive (its `responseStart`; or not while the page loaded, yet
 *   at the journey's end).
 * - `audit-tcloaded-late`: a request carried a `gdpr_consent` parameter before `__tcfapi`
 *   reported `tcloaded` (or `useractioncomplete`): a tag read the string before it was there.
 */
import type { JourneyName } from './journey.ts';
import type { LoggedRequest } from './network-log.ts';
import type { AuditFinding, Phase, SignalsView } from './report.ts';

export const TCFAPI_DEADLINE_MS = 500;

export type SignalTimes = {
  /** Epoch ms of the navigation to the page, of the decision and of the strings' read. */
  readonly navigationAt: number;
  readonly decisionAt: number;
  readonly readAt: number;
  /** Epoch ms of the first `tcloaded`/`useractioncomplete`, or null. */
  readonly loadedAt: number | null;
};

const NO_TAG = { chain: [], tag: { kind: 'other', url: null } } as const;
const list = (ids: readonly number[]) =>
  ids.length > 12 ? `${ids.slice(0, 12).join(', ')} and ${ids.length - 12} more` : ids.join(', ');
const GPP_TCF_SECTIONS = ['tcfeuv2', 'tcfcav1'];
const US_OPT_OUTS = ['SaleOptOut', 'SharingOptOut', 'TargetedAdvertisingOptOut'];

/** What the strings grant beyond the journey's decision, one line per string. */
export function overgrants(view: SignalsView, name: JourneyName): string[] {
  if (name === 'accept') return [];
  const lines: string[] = [];
  const tc = view.tcf.value;
  if (tc && tc.gdprApplies !== false) {
    const parts = [
      tc.purposeConsents.length ? `purpose consents ${list(tc.purposeConsents)}` : '',
      tc.specialFeatureOptins.length ? `special feature opt-ins ${list(tc.specialFeatureOptins)}` : '',
      tc.vendorConsents.length ? `vendor consents ${list(tc.vendorConsents)}` : '',
    ].filter(Boolean);
    if (parts.length) lines.push(`the TC string (__tcfapi getTCData) grants ${parts.join('; ')}`);
  }
  for (const section of view.gpp.value?.sections ?? []) {
    const consents = Object.hasOwn(section.fields, 'PurposeConsents') ? section.fields['PurposeConsents'] : undefined;
    if (GPP_TCF_SECTIONS.includes(section.name) && Array.isArray(consents)) {
      const granted = consents.flatMap((value, index) => (value === true || value === 1 ? [index + 1] : []));
      if (granted.length) lines.push(`the GPP section ${section.name} grants purpose consents ${list(granted)}`);
    }
    if (name === 'reject') {
      const notOptedOut = US_OPT_OUTS.filter((key) => Object.hasOwn(section.fields, key) && section.fields[key] === 2);
      if (notOptedOut.length)
        lines.push(`the GPP section ${section.name} says the reader did not opt out (${notOptedOut.join(', ')} 2)`);
    }
  }
  const usp = view.usp.value;
  if (name === 'reject' && usp && usp.optOutSale === 'N')
    lines.push(`the US privacy string ${usp.uspString} says the reader did not opt out of the sale`);
  return lines;
}

const GDPR_CONSENT = /[?&;]gdpr_consent=/;

export function judgeSignals(
  view: SignalsView,
  name: JourneyName,
  times: SignalTimes,
  requests: readonly LoggedRequest[],
): AuditFinding[] {
  const phase: Phase = name === 'no-decision' ? 'before' : 'after';
  const decided = name === 'no-decision' ? 'no decision' : `a ${name}`;
  const at = (epoch: number) => Math.round(epoch - times.decisionAt);
  const finding = (code: string, t: number, what: string, message: string, hint: string): AuditFinding => ({
    code,
    subject: 'signal',
    phase,
    t,
    what,
    message,
    initiator: NO_TAG,
    hint,
  });
  const findings: AuditFinding[] = overgrants(view, name).map((line) =>
    finding(
      'audit-string-overgrant',
      at(times.readAt),
      line.startsWith('the TC') ? 'TC string' : line.startsWith('the US') ? 'US privacy string' : 'GPP string',
      `expected no more than ${decided} grants, got ${line}`,
      'The CMP must build each string from the decision: nothing granted before a choice, nothing but what the reader chose after it.',
    ),
  );
  const tc = view.tcf.value;
  if (tc && tc.disclosedVendors === null)
    findings.push(
      finding(
        'audit-tc-no-disclosed-vendors',
        at(times.readAt),
        'TC string',
        `expected a TC string with the DisclosedVendors segment, got one with ${tc.tcString.split('.').length - 1} other segment(s) (policy version ${tc.policyVersion})`,
        'TCF 2.3 strings carry the vendors the prompt disclosed: encode the vendorsDisclosed segment (with our own prompts: the `tcf.vendors` list).',
      ),
    );
  const hasTcfApi = view.tcf.status !== 'none' || view.tcfFirstAnswerMs !== null;
  const first = view.tcfFirstAnswerMs;
  if (hasTcfApi && (first === null || first > TCFAPI_DEADLINE_MS))
    findings.push(
      finding(
        'audit-tcfapi-late',
        first === null ? at(times.readAt) : at(times.navigationAt + first),
        '__tcfapi',
        `expected __tcfapi to answer ping within ${TCFAPI_DEADLINE_MS} ms of the page's response, got ${first === null ? 'no answer while the page loaded' : `its first answer after ${first} ms`}`,
        'Put the IAB stub (our head stub) first in <head>, before any ad tag, so that __tcfapi exists and answers ping at once.',
      ),
    );
  if (hasTcfApi) {
    const early = requests.filter(
      (request) =>
        GDPR_CONSENT.test(request.url) &&
        request.time < (times.loadedAt ?? Number.POSITIVE_INFINITY) &&
        request.time <= times.readAt,
    );
    for (const request of early.slice(0, 20))
      findings.push(
        finding(
          'audit-tcloaded-late',
          at(request.time),
          request.url,
          `expected tags to read the TC string after __tcfapi reported tcloaded${view.tcLoadedMs === null ? '' : ` (${view.tcLoadedMs} ms)`}, got ${request.url} with gdpr_consent ${times.loadedAt === null ? 'and no tcloaded at all' : `${Math.round(times.loadedAt - request.time)} ms earlier`}`,
          'Let the tag wait for __tcfapi addEventListener (tcloaded or useractioncomplete) before it reads the string.',
        ),
      );
  }
  return findings;
}
