/**
 * The IAB queue stubs (`__tcfapi`, `__gpp`) of the consent extension, their locator frames and
 * a first postMessage bridge for vendors in child frames (docs/consent.md, "Signals for ad
 * tech"). A stub queues calls until the full API (a lazy part) takes its queue, and answers
 * `ping` at once. A frame cannot remove listeners through this bridge (whose they are is not
 * known yet); the parts replace it with the full bridge (api-guard.ts). With the head stub on
 * the page its stubs, frames and bridge serve instead: nothing is answered twice.
 */
import { isRecord, own } from '../wire/values.ts';
import type { SignalApi, StubScope } from './signal-apis.ts';

type ApiFunction = (...args: unknown[]) => unknown;

const scope = self as unknown as Record<string, ApiFunction | undefined> & StubScope;
const bridges: ((event: MessageEvent) => void)[] = [];
const ours = {
  off: () => {
    for (const bridge of bridges) removeEventListener('message', bridge);
  },
};

/** Whether `source` is a frame inside this window (at any depth). */
export function isDescendant(source: MessageEventSource | null): boolean {
  for (let frame = source as Window | null; frame && frame !== frame.parent; frame = frame.parent) {
    if (frame.parent === self) return true;
  }
  return false;
}

/** The `<name>Call` of a message of a descendant frame, with the function that answers it. */
export function frameCallOf(event: MessageEvent, name: string): [Record<string, unknown>, (value: unknown, success: boolean) => void] | undefined {
  let data = event.data;
  const isText = typeof data === 'string';
  try {
    if (isText) data = JSON.parse(data);
  } catch {}
  const call = isRecord(data) ? own(data, `${name}Call`) : undefined;
  if (!isRecord(call) || !isDescendant(event.source)) return;
  return [
    call,
    (returnValue, success) => {
      const message = { [`${name}Return`]: { returnValue, success, callId: call.callId } };
      (event.source as Window).postMessage(isText ? JSON.stringify(message) : message, '*');
    },
  ];
}

export function installStub(api: SignalApi, ping: () => unknown): void {
  const { name, callbackIndex } = api;
  if (scope[name]) return;
  const queue: unknown[][] = [];
  scope[name] = (...args) => {
    if (!args.length) return queue;
    const callback = args[callbackIndex];
    if (args[0] === 'ping' && typeof callback === 'function') callback(ping(), true);
    else queue.push(args);
  };
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
  const bridge = (event: MessageEvent) => {
    const [call, reply] = frameCallOf(event, name) ?? [];
    if (!call || !reply) return;
    if (call.command === 'removeEventListener') reply(false, false);
    else scope[name]?.(...api.argumentsOf(call, reply));
  };
  addEventListener('message', bridge);
  bridges.push(bridge);
  scope.__pageConsentStub = ours;
}
