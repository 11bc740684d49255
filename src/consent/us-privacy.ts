/**
 * `__uspapi('getUSPData', 1, callback)`: the CMP's US privacy string (consentStringType 3). Child
 * frames reach it through a `__uspapiLocator` frame with `__uspapiCall` messages; the frame (a
 * browsing context, costly to create) is added with the first US privacy string, since until
 * then every answer is "none".
 */
import { installLocator } from './api-stub.ts';
import { type ConsentSignal, STRING_TYPE, stringOfType } from './signal-source.ts';

type UsPrivacyCallback = (data: { version: 1; uspString: string } | null, success: boolean) => void;

/** Installs `__uspapi`; returns what to call with each new signal. */
export function installUsPrivacyApi(current: () => ConsentSignal): (signal: ConsentSignal) => void {
  const scope = self as unknown as { __uspapi?: unknown };
  if (scope.__uspapi) return () => {};
  scope.__uspapi = (command: unknown, version: unknown, callback: UsPrivacyCallback) => {
    const uspString = stringOfType(current(), STRING_TYPE.usPrivacy);
    if (typeof callback !== 'function') return;
    if (command === 'getUSPData' && version === 1 && uspString) callback({ version: 1, uspString }, true);
    else callback(null, false);
  };
  let hasLocator = false;
  return (signal) => {
    if (hasLocator || !stringOfType(signal, STRING_TYPE.usPrivacy)) return;
    hasLocator = true;
    installLocator({ name: '__uspapi', argumentsOf: (call, reply) => [call.command, call.version, reply] });
  };
}
