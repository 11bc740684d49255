/**
 * The IAB queue stubs (`__tcfapi`, `__gpp`) of the consent extension, their locator frames and
 * a first postMessage bridge for vendors in child frames (docs/consent.md, "Signals for ad
 * tech"). A stub queues calls until the full API (a lazy part) takes its queue, and answers
 * `ping` at once. A frame cannot remove listeners through this bridge (whose they are is not
 * known yet); the parts replace it with the full bridge (api-guard.ts). With the head stub on
 * the page its stubs, frames and bridge serve instead: nothing is answered twice. Queues,
 * messages and a frame's listeners are bounded as in the head stub (api-bounds.ts).
 */
import { isRecord, own } from '../wire/values.ts';
import { admitStubCall, copyOfMessage, isDescendant, queueStub } from './api-bounds.ts';
import type { SignalApi, StubScope } from './signal-apis.ts';

type ApiFunction = (...args: unknown[]) => unknown;

const scope = self as unknown as Record<string, ApiFunction | undefined> & StubScope;
const bridges: ((event: MessageEvent) => void)[] = [];
const ours = {
  off: () => {
    for (const bridge of bridges) removeEventListener('message', bridge);
  },
};

/** The `<name>Call` of a message of a descendant frame (a JSON copy, api-bounds.ts), with the function that answers it. */
export function frameCallOf(
  event: MessageEvent,
  name: string,
): [Record<string, unknown>, (value: unknown, success: boolean) => void] | undefined {
  if (!isDescendant(event.source)) return;
  const isText = typeof event.data === 'string';
  const data = copyOfMessage(event.data);
  const call = isRecord(data) ? own(data, `${name}Call`) : undefined;
  if (!isRecord(call)) return;
  return [
    call,
    (returnValue, success) => {
      const message = { [`${name}Return`]: { returnValue, success, callId: call.callId } };
      (event.source as Window).postMessage(isText ? JSON.stringify(message) : message, '*');
    },
  ];
}

export function installStub(api: SignalApi, ping: () => unknown): void {
  if (scope[api.name]) return;
  scope[api.name] = queueStub(api.callbackIndex, ping);
  installLocator(api);
}

/** The `<name>Locator` frame vendors in child frames look for, and a bridge answering them (unless another bridge serves). */
export function installLocator(api: SignalApi): void {
  const { name } = api;
  if (!frames[`${name}Locator` as never]) {
    const locator = document.createElement('iframe');
    locator.name = locator.title = `${name}Locator`;
    locator.hidden = true;
    document.body.append(locator);
  }
  if (scope.__pageConsentBridge || (scope.__pageConsentStub && scope.__pageConsentStub !== ours)) return;
  const listeners = new WeakMap<object, number>();
  const bridge = (event: MessageEvent) => {
    const [call, reply] = frameCallOf(event, name) ?? [];
    if (!call || !reply) return;
    if (admitStubCall(call, event.source!, listeners)) scope[name]?.(...api.argumentsOf(call, reply));
    else reply(false, false);
  };
  addEventListener('message', bridge);
  bridges.push(bridge);
  scope.__pageConsentStub = ours;
}
