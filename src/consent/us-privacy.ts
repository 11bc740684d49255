/**
 * `__uspapi('getUSPData', 1, callback)`: the CMP's US privacy string (consentStringType 3). A call
 * made while the decision is on its way is answered once it is known, so a first page view
 * gets its string (at the latest at the policy timeout, then `null, false`); the head stub's
 * queue is taken over; at most `STUB_QUEUE_LIMIT` calls wait (api-bounds.ts), more are answered
 * `null, false`. Child frames reach it through a `__uspapiLocator` frame with
 * `__uspapiCall` messages; the frame (a browsing context, costly to create) is added with the
 * first US privacy string, since until then every answer is "none". With a `gpp` config (a page
 * set up for US readers), a decision of our own (accept, reject, GPC, `consent.optOut`) without a
 * CMP's US privacy string gets one built from its opt-outs (docs/us-privacy.md).
 */
import { STUB_QUEUE_LIMIT } from './api-bounds.ts';
import { installLocator } from './api-stub.ts';
import { type ConsentSignal, STRING_TYPE, stringOfType } from './signal-source.ts';
import { USP_API } from './signal-apis.ts';
import { usPrivacyStringOf } from '../wire/us-opt-outs.ts';

type UsPrivacyCallback = (data: { version: 1; uspString: string } | null, success: boolean) => void;

type Fields = Readonly<Record<string, number>>;

/**
 * The US privacy string of `signal`: the CMP's (`consentStringType` 3); else, with a `gpp`
 * config (`usnat`: its `usnat` fields, maybe none), the one its accept or reject stands for.
 */
export function usPrivacyOf(signal: ConsentSignal, usnat: Fields | null): string {
  const own = stringOfType(signal, STRING_TYPE.usPrivacy);
  const isDecided = signal.state === 'accepted' || signal.state === 'rejected';
  return own || (usnat !== null && isDecided ? usPrivacyStringOf(signal, usnat) : '');
}

/** Installs `__uspapi` (`usnat`: as for `usPrivacyOf`); returns what to call with each new signal. */
export function installUsPrivacyApi(usnat: Fields | null = null): (signal: ConsentSignal) => void {
  const scope = self as unknown as { __uspapi?: (...args: unknown[]) => unknown };
  const queued = scope.__uspapi?.();
  if (scope.__uspapi && !Array.isArray(queued)) return () => {};
  let signal: ConsentSignal | undefined;
  let waiting: unknown[][] | null = (queued as unknown[][] | undefined) ?? [];
  const answer = (command: unknown, version: unknown, callback: UsPrivacyCallback) => {
    const uspString = signal ? usPrivacyOf(signal, usnat) : '';
    if (command === 'getUSPData' && version === 1 && uspString) callback({ version: 1, uspString }, true);
    else callback(null, false);
  };
  scope.__uspapi = (...args: unknown[]) => {
    if (typeof args[2] !== 'function') return;
    if (waiting && waiting.length < STUB_QUEUE_LIMIT) waiting.push(args);
    else if (waiting) args[2](null, false);
    else answer(...(args as Parameters<typeof answer>));
  };
  let hasLocator = false;
  return (next) => {
    signal = next;
    // Known: decided with its strings, or nothing more to wait for (no prompt, or the policy timed out).
    if (
      waiting &&
      next.isKnown &&
      !next.isStringPending &&
      (next.state !== 'unknown' || !next.isPromptShown || next.hasTimedOut)
    ) {
      const calls = waiting;
      waiting = null;
      // In a task after the TCF and GPP updates: Prebid.js's US privacy module, answered after its
      // own short time-out, resumes the auction a second time, past the TCF and GPP waits.
      setTimeout(() => {
        for (const args of calls) scope.__uspapi?.(...args);
      });
    }
    if (hasLocator || !usPrivacyOf(next, usnat)) return;
    hasLocator = true;
    installLocator(USP_API);
  };
}
