/**
 * `__uspapi('getUSPData', 1, callback)`: the CMP's US privacy string (consentStringType 3); child
 * frames reach it through the `__uspapiLocator` frame with `__uspapiCall` messages.
 */
import { installLocator } from './api-stub.ts';
import { type ConsentSignal, STRING_TYPE, stringOfType } from './signal-source.ts';

type UsPrivacyCallback = (data: { version: 1; uspString: string } | null, success: boolean) => void;

export function installUsPrivacyApi(current: () => ConsentSignal): void {
  const scope = self as unknown as { __uspapi?: unknown };
  if (scope.__uspapi) return;
  scope.__uspapi = (command: unknown, version: unknown, callback: UsPrivacyCallback) => {
    const uspString = stringOfType(current(), STRING_TYPE.usPrivacy);
    if (typeof callback !== 'function') return;
    if (command === 'getUSPData' && version === 1 && uspString) callback({ version: 1, uspString }, true);
    else callback(null, false);
  };
  installLocator({ name: '__uspapi', argumentsOf: (call, reply) => [call.command, call.version, reply] });
}
