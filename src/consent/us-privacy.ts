/**
 * `__uspapi('getUSPData', 1, callback)`: the CMP's US privacy string (consentStringType 3). A call
 * made while the decision is still on its way is answered once it is known, so a first page
 * view gets its string (at the latest when the policy times out: then `null, false`). Calls
 * queued by the head stub are taken over. Child frames reach it through a `__uspapiLocator`
 * frame with `__uspapiCall` messages; the frame (a browsing context, costly to create) is added
 * with the first US privacy string, since until then every answer is "none".
 */
import { installLocator } from './api-stub.ts';
import { type ConsentSignal, STRING_TYPE, stringOfType } from './signal-source.ts';
import { isApiCommand, USP_API } from './signal-apis.ts';

type UsPrivacyCallback = (data: { version: 1; uspString: string } | null, success: boolean) => void;

/** Whether the decision is known: any state but pending, and an undecided consent once timed out. */
const isSettled = (signal: ConsentSignal | undefined) =>
  !!signal && signal.isKnown && (signal.state !== 'unknown' || !signal.isPromptShown || signal.hasTimedOut);

/** Installs `__uspapi`; returns what to call with each new signal. */
export function installUsPrivacyApi(current: () => ConsentSignal | undefined): (signal: ConsentSignal) => void {
  const scope = self as unknown as { __uspapi?: (...args: unknown[]) => unknown };
  const stub = scope.__uspapi;
  const queued = typeof stub === 'function' ? stub() : undefined;
  if (stub && !Array.isArray(queued)) return () => {};
  const waiting: [unknown, unknown, UsPrivacyCallback][] = [];
  const answer = (command: unknown, version: unknown, callback: UsPrivacyCallback) => {
    const uspString = stringOfType(current()!, STRING_TYPE.usPrivacy);
    if (isApiCommand(USP_API, command) && version === 1 && uspString) callback({ version: 1, uspString }, true);
    else callback(null, false);
  };
  scope.__uspapi = (command: unknown, version: unknown, callback: unknown) => {
    if (typeof callback !== 'function') return;
    if (isSettled(current()) || !isApiCommand(USP_API, command)) answer(command, version, callback as UsPrivacyCallback);
    else waiting.push([command, version, callback as UsPrivacyCallback]);
  };
  for (const args of (queued ?? []) as unknown[][]) scope.__uspapi(...args);
  let hasLocator = false;
  return (signal) => {
    if (isSettled(signal)) for (const call of waiting.splice(0)) answer(...call);
    if (hasLocator || !stringOfType(signal, STRING_TYPE.usPrivacy)) return;
    hasLocator = true;
    installLocator(USP_API);
  };
}
