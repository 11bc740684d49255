/**
 * Publisher endpoints: the `checkConsentHref` check (PRODUCT 3.3: 10 s time-out, any failure
 * named in one diagnostic and answered by the caller with fail-closed) and the `onUpdateHref`
 * notification (PRODUCT 3.4).
 */
import type { ConsentCheckRequest, ConsentUpdateRequest, PurposeConsents } from '../protocol.ts';
import type { Diagnostic, Parsed } from '../runtime/index.ts';
import { checkTypes, isObject } from './config.ts';
import { diagnose } from './diagnose.ts';
import { type CheckResult, STORED_TYPES, type StoredConsent } from './state.ts';

export const CHECK_TIMEOUT_MS = 10_000;

const TYPES = {
  ...STORED_TYPES,
  consentRequired: 'boolean',
  promptIfUnknown: 'boolean',
  consentStateValue: 'string',
  expireCache: 'boolean',
  sharedData: 'object',
  purposeConsent: 'object',
};

/** An answer's fields after `checkTypes`, before the seed's defaults. */
type Answer = Partial<Omit<CheckResult, 'consentStateValue'>> & {
  readonly consentStateValue?: string;
  readonly promptIfUnknown?: boolean;
  readonly purposeConsent?: PurposeConsents;
};

const failed = (cause: string): Parsed<null> => ({
  value: null,
  diagnostics: [diagnose('consent-check-failed', 'a JSON answer', cause)],
});

/** Reads an answer; a non-boolean `consentRequired` fails it, other mistyped fields are ignored. */
export function parseCheckResponse(text: string, xssiPrefix = ''): Parsed<CheckResult | null> {
  let json: unknown;
  try {
    json = JSON.parse(text.startsWith(xssiPrefix) ? text.slice(xssiPrefix.length) : text);
  } catch {
    return failed('invalid JSON');
  }
  if (!isObject(json)) return failed('no JSON object');
  const answer = checkTypes(json, TYPES, []) as Answer;
  if (answer.consentRequired === undefined && json.consentRequired != null) return failed('a non-boolean consentRequired');
  const value = answer.consentStateValue;
  return {
    value: {
      ...answer,
      consentRequired: answer.consentRequired ?? answer.promptIfUnknown ?? false,
      consentStateValue: value === 'accepted' || value === 'rejected' || value === 'unknown' ? value : null,
      consentString: answer.consentString || undefined,
      purposeConsents: answer.purposeConsents ?? answer.purposeConsent,
    },
    diagnostics: [],
  };
}

/** A POST of JSON with credentials. */
const post = (url: string, body: unknown, init: RequestInit) =>
  fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...init });

/** Checks with the server; resolves with the answer or a diagnostic naming the cause. */
export async function checkConsent(url: string, body: ConsentCheckRequest, xssiPrefix?: string): Promise<Parsed<CheckResult | null>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  try {
    const response = await post(url, body, { signal: controller.signal });
    return response.ok ? parseCheckResponse(await response.text(), xssiPrefix) : failed(`HTTP ${response.status}`);
  } catch {
    return failed(controller.signal.aborted ? 'no answer within 10 s' : 'network or CORS error');
  } finally {
    clearTimeout(timer);
  }
}

/** The check body (PRODUCT 3.3) from the cached decision. */
export function checkRequestOf(consentInstanceId: string, saved: StoredConsent | null, matchedGeoGroup: string | null): ConsentCheckRequest {
  const { state: consentStateValue = 'unknown', consentString, purposeConsents } = saved ?? {};
  return { consentInstanceId, consentStateValue, consentString, matchedGeoGroup, purposeConsents, isDirty: false } as ConsentCheckRequest;
}

/** Posts a newly cached decision (PRODUCT 3.4); a failure is reported, never retried. */
export function notifyUpdate(url: string, update: { consentInstanceId: string; pageUserId: string }, saved: StoredConsent, report: (d: Diagnostic) => void) {
  const { version, state: consentStateValue, ...data } = saved;
  const body: ConsentUpdateRequest = { ...update, consentStateValue, ...data } as ConsentUpdateRequest;
  const fail = (got: string) => report(diagnose('consent-update-failed', 'a 2xx answer', got));
  return post(url, body, { keepalive: true }).then(
    (response) => void (response.ok || fail(`HTTP ${response.status}`)),
    () => fail('network or CORS error'),
  );
}
