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

/** The remote part's exports (src/consent/parts.ts). */
export type RemoteCalls = {
  checkConsent: typeof checkConsent;
  checkRequestOf: typeof checkRequestOf;
  notifyUpdate: typeof notifyUpdate;
};

/**
 * POSTs `body` as JSON with credentials and reads the answer within CHECK_TIMEOUT_MS and `maxBytes`: its text,
 * or the diagnostic of what failed (`failure` names the cause: `HTTP nnn`, no answer in time, a network error).
 */
async function exchange(
  network: Network,
  url: string,
  body: unknown,
  maxBytes: number,
  failure: (got: string) => Diagnostic,
  init?: RequestInit,
) {
  const controller = new AbortController();
  const timer = network.clock.setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
  try {
    const { signal } = controller;
    const response = await network.fetch(url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
      ...init,
    });
    return response.ok ? await readBody(response, maxBytes) : failure(`HTTP ${response.status}`);
  } catch {
    return failure(controller.signal.aborted ? 'no answer within 10 s' : 'network or CORS error');
  } finally {
    network.clock.clearTimeout(timer);
  }
}

/** Checks with the server; resolves with the answer or a diagnostic naming the cause, within 10 s. */
export async function checkConsent(
  network: Network,
  url: string,
  body: ConsentCheckRequest,
  xssiPrefix?: string,
): Promise<Parsed<CheckResult | null>> {
  const text = await exchange(network, url, body, CHECK_ANSWER_MAX_BYTES, (got) =>
    diagnostic('consent-check-failed', 'a JSON answer', got),
  );
  return typeof text === 'string' ? parseCheckAnswer(text, xssiPrefix) : { value: null, diagnostics: [text] };
}

/** The check body (docs/consent.md, "Remote check") from the cached decision; `gpc: true` when GPC applies (docs/consent.md, "Global Privacy Control"). */
export function checkRequestOf(
  consentInstanceId: string,
  saved: Pick<StoredConsent, 'state' | 'consentString' | 'purposeConsents'> | null,
  matchedGeoGroup: string | null,
  gpc?: boolean,
): ConsentCheckRequest {
  const { state: consentStateValue = 'unknown', consentString, purposeConsents } = saved ?? {};
  return {
    consentInstanceId,
    consentStateValue,
    consentString,
    matchedGeoGroup,
    purposeConsents,
    isDirty: false,
    ...(gpc && { gpc }),
  } as ConsentCheckRequest;
}

/**
 * Posts a newly cached decision (docs/consent.md, "Update notification"); a failure, or no answer within 10 s, is reported,
 * never retried. Resolves with the answer's receipt id (docs/server.md, "Proving consent"), or null.
 */
export async function notifyUpdate(
  network: Network,
  url: string,
  update: { consentInstanceId: string; pageUserId: string },
  saved: StoredConsent,
  report: (d: Diagnostic) => void,
) {
  const { version, time, state: consentStateValue, ...data } = saved;
  const body: ConsentUpdateRequest = { ...update, consentStateValue, ...data } as ConsentUpdateRequest;
  const text = await exchange(
    network,
    url,
    body,
    UPDATE_ANSWER_MAX_BYTES,
    (got) => diagnostic('consent-update-failed', 'a 2xx answer', got),
    { keepalive: true },
  );
  if (typeof text === 'string') return parseUpdateAnswer(text);
  report(text);
  return null;
}
