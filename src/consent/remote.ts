/**
 * Publisher endpoints: the `checkConsentHref` check (docs/consent.md, "Remote check": 10 s time-out, a byte cap, any failure
 * named in one diagnostic and answered by the caller with fail-closed) and the `onUpdateHref`
 * notification (docs/consent.md, "Update notification"). The network and the clock are injected.
 */
import type { ConsentCheckRequest, ConsentUpdateRequest } from '../wire/protocol.ts';
import type { Diagnostic, Parsed } from '../runtime/index.ts';
import { type CheckResult, parseCheckAnswer, parseUpdateAnswer, type StoredConsent } from '../wire/consent.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { readBody } from '../wire/read-body.ts';

export const CHECK_TIMEOUT_MS = 10_000;

/** Byte caps (docs/reliability.md, "Byte caps"): a check answer (its sharedData included), an update answer (a receipt id). */
export const CHECK_ANSWER_MAX_BYTES = 1 << 20;
export const UPDATE_ANSWER_MAX_BYTES = 16 << 10;

/** The timers the consent controller uses (`globalThis` in the page, fake ones in tests). */
export type Clock = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type Network = { readonly fetch: typeof fetch; readonly clock: Clock };

const failed = (cause: string): Parsed<null> => ({
  value: null,
  diagnostics: [diagnostic('consent-check-failed', 'a JSON answer', cause)],
});

/** A POST of JSON with credentials. */
const post = (network: Network, url: string, body: unknown, init: RequestInit) =>
  network.fetch(url, { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), ...init });

/** Checks with the server; resolves with the answer or a diagnostic naming the cause, within 10 s. */
export async function checkConsent(network: Network, url: string, body: ConsentCheckRequest, xssiPrefix?: string): Promise<Parsed<CheckResult | null>> {
  const controller = new AbortController();
  const timer = network.clock.setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  try {
    const response = await post(network, url, body, { signal: controller.signal });
    if (!response.ok) return failed(`HTTP ${response.status}`);
    const text = await readBody(response, CHECK_ANSWER_MAX_BYTES);
    return typeof text === 'string' ? parseCheckAnswer(text, xssiPrefix) : { value: null, diagnostics: [text] };
  } catch {
    return failed(controller.signal.aborted ? 'no answer within 10 s' : 'network or CORS error');
  } finally {
    network.clock.clearTimeout(timer);
  }
}

/** The check body (docs/consent.md, "Remote check") from the cached decision; `gpc: true` when GPC applies (docs/consent.md, "Global Privacy Control"). */
export function checkRequestOf(
  consentInstanceId: string,
  saved: Pick<StoredConsent, 'state' | 'consentString' | 'purposeConsents'> | null,
  matchedGeoGroup: string | null,
  gpc?: boolean,
): ConsentCheckRequest {
  const { state: consentStateValue = 'unknown', consentString, purposeConsents } = saved ?? {};
  return { consentInstanceId, consentStateValue, consentString, matchedGeoGroup, purposeConsents, isDirty: false, ...(gpc && { gpc }) } as ConsentCheckRequest;
}

/**
 * Posts a newly cached decision (docs/consent.md, "Update notification"); a failure, or no answer within 10 s, is reported,
 * never retried. Resolves with the answer's receipt id (docs/server.md, "Proving consent"), or null.
 */
export async function notifyUpdate(network: Network, url: string, update: { consentInstanceId: string; pageUserId: string }, saved: StoredConsent, report: (d: Diagnostic) => void) {
  const { version, time, state: consentStateValue, ...data } = saved;
  const body: ConsentUpdateRequest = { ...update, consentStateValue, ...data } as ConsentUpdateRequest;
  const controller = new AbortController();
  const timer = network.clock.setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  const fail = (got: string) => {
    report(diagnostic('consent-update-failed', 'a 2xx answer', got));
    return null;
  };
  try {
    const response = await post(network, url, body, { keepalive: true, signal: controller.signal });
    if (!response.ok) return fail(`HTTP ${response.status}`);
    const text = await readBody(response, UPDATE_ANSWER_MAX_BYTES);
    if (typeof text === 'string') return parseUpdateAnswer(text);
    report(text);
    return null;
  } catch {
    return fail(controller.signal.aborted ? 'no answer within 10 s' : 'network or CORS error');
  } finally {
    network.clock.clearTimeout(timer);
  }
}
