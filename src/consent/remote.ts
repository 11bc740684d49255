/**
 * Publisher endpoints: the `checkConsentHref` check (PRODUCT 3.3: 10 s time-out, any failure
 * named in one diagnostic and answered by the caller with fail-closed) and the `onUpdateHref`
 * notification (PRODUCT 3.4).
 */
import type {
  ConsentCheckRequest,
  ConsentStateValue,
  ConsentUpdateRequest,
  PurposeConsents,
  SharedData,
} from '../protocol.ts';
import type { Diagnostic, Parsed } from '../runtime/diagnostics.ts';
import { isObject } from './config.ts';
import { diagnose } from './diagnose.ts';
import type { CheckResult, StoredConsent } from './state.ts';

export const CHECK_TIMEOUT_MS = 10_000;

const STATES: readonly unknown[] = ['accepted', 'rejected', 'unknown', null];

const failed = (cause: string): Parsed<null> => ({
  value: null,
  diagnostics: [diagnose('consent-check-failed', 'a JSON answer from checkConsentHref', cause)],
});

/** Validates an answer; a non-boolean `consentRequired` fails it, other bad fields are dropped. */
export function parseCheckResponse(text: string, xssiPrefix: string | undefined): Parsed<CheckResult | null> {
  let json: unknown;
  try {
    json = JSON.parse(xssiPrefix && text.startsWith(xssiPrefix) ? text.slice(xssiPrefix.length) : text);
  } catch {
    return failed('invalid JSON');
  }
  if (!isObject(json)) return failed('no JSON object');
  const diagnostics: Diagnostic[] = [];
  const field = <T>(key: string, is: (value: unknown) => boolean, expected: string): T | undefined => {
    const value = json[key];
    if (value === undefined || is(value)) return value as T;
    diagnostics.push(diagnose('consent-response-field', `${key}: ${expected}`, value));
  };
  const isMap = (type: string) => (value: unknown) => isObject(value) && Object.values(value).every((item) => type.includes(typeof item));
  const { consentRequired = json.promptIfUnknown ?? false } = json;
  if (typeof consentRequired !== 'boolean') return failed(`consentRequired ${JSON.stringify(consentRequired)}`);
  const purposes = json.purposeConsents === undefined ? 'purposeConsent' : 'purposeConsents';
  return {
    value: {
      consentRequired,
      consentStateValue: field<ConsentStateValue | null>('consentStateValue', (value) => STATES.includes(value), 'accepted|rejected|unknown|null') ?? null,
      consentString: field<string | null>('consentString', (value) => value === null || typeof value === 'string', 'string|null') || undefined,
      expireCache: field<boolean>('expireCache', (value) => typeof value === 'boolean', 'boolean') ?? false,
      sharedData: field<SharedData>('sharedData', isMap('string number boolean'), 'object'),
      purposeConsents: field<PurposeConsents>(purposes, isMap('boolean'), 'map of booleans'),
      consentMetadata: field('consentMetadata', isObject, 'object'),
      tcfPolicyVersion: field<number>('tcfPolicyVersion', Number.isInteger, 'integer'),
    },
    diagnostics,
  };
}

/** POSTs the check with credentials; resolves with the answer or a diagnostic naming the cause. */
export async function checkConsent(url: string, body: ConsentCheckRequest, xssiPrefix: string | undefined): Promise<Parsed<CheckResult | null>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  try {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) return failed(`HTTP ${response.status}`);
    return parseCheckResponse(await response.text(), xssiPrefix);
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

/** The update body (PRODUCT 3.4) for a newly cached decision. */
export function updateRequestOf(consentInstanceId: string, pageUserId: string, saved: StoredConsent): ConsentUpdateRequest {
  const { state: consentStateValue, consentString, purposeConsents, consentMetadata, tcfPolicyVersion } = saved;
  return { consentInstanceId, pageUserId, consentStateValue, consentString, purposeConsents, consentMetadata, tcfPolicyVersion } as ConsentUpdateRequest;
}

/** Fire-and-forget POST; a failure is reported, never retried. */
export function notifyUpdate(url: string, body: ConsentUpdateRequest, report: (d: Diagnostic) => void): Promise<void> {
  return fetch(url, {
    method: 'POST',
    credentials: 'include',
    keepalive: true,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then(
    (response) => void (response.ok || report(diagnose('consent-update-failed', 'a 2xx answer from onUpdateHref', `HTTP ${response.status}`))),
    () => report(diagnose('consent-update-failed', 'a 2xx answer from onUpdateHref', 'network or CORS error')),
  );
}
