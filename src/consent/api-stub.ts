/**
 * The IAB queue stubs (`__tcfapi`, `__gpp`) of the consent extension, their locator frames and
 * the postMessage bridge that answers vendors in child frames (docs/consent.md, "Signals for
 * ad tech"). A stub queues calls until the full API (a lazy part) takes its queue, and answers
 * `ping` at once. Through the bridge a frame reaches only the commands the API defines and
 * removes only the listeners it added itself. When the head stub (`page-consent-stub-0.1.js`)
 * is on the page, its stubs and frames stay and its bridge hands over to this one: nothing is
 * answered twice.
 */
import { isRecord, own } from '../wire/values.ts';
import { GPP_API, isApiCommand, type SignalApi, TCF_API, USP_API } from './signal-apis.ts';

type Callback = (value: unknown, success: boolean) => void;
type ApiFunction = (...args: unknown[]) => unknown;

const scope = self as unknown as Record<string, ApiFunction | undefined> & { __pageConsentStub?: { off(): void } };

/** Whether `source` is a frame inside this window (at any depth). */
function isDescendant(source: MessageEventSource | null): boolean {
  for (let frame = source as Window | null; frame && frame !== frame.parent; frame = frame.parent) {
    if (frame.parent === self) return true;
  }
  return false;
}

/** The listener ids each frame added through the bridge, per API. */
const listenersOf = new Map<string, WeakMap<object, Set<unknown>>>();

/** A frame's call: only defined commands, only its own listeners removed; its new listener ids are noted. */
function callFromFrame(api: SignalApi, call: Record<string, unknown>, frame: object, reply: Callback) {
  const owned = listenersOf.get(api.name)!;
  const ids = owned.get(frame) ?? new Set();
  owned.set(frame, ids);
  if (!isApiCommand(api, call.command)) return reply(null, false);
  if (call.command === 'removeEventListener' && !ids.has(call.parameter)) return reply(false, false);
  const noted: Callback = (value, success) => {
    const id = call.command === 'addEventListener' && isRecord(value) ? own(value, 'listenerId') : undefined;
    if (id !== undefined && id !== null) ids.add(id);
    reply(value, success);
  };
  scope[api.name]?.(...api.argumentsOf(call, noted));
}

/** Answers `{<name>Call: {...}}` messages of descendant frames with `{<name>Return: {...}}`, once per API. */
function bridgeFrames(api: SignalApi) {
  if (listenersOf.has(api.name)) return;
  listenersOf.set(api.name, new WeakMap());
  addEventListener('message', (event) => {
    let data = event.data;
    const isText = typeof data === 'string';
    try {
      if (isText) data = JSON.parse(data);
    } catch {}
    const call = isRecord(data) ? own(data, `${api.name}Call`) : undefined;
    if (!isRecord(call) || !event.source || !isDescendant(event.source)) return;
    const source = event.source as Window;
    callFromFrame(api, call, source, (returnValue, success) => {
      const message = { [`${api.name}Return`]: { returnValue, success, callId: call.callId } };
      source.postMessage(isText ? JSON.stringify(message) : message, '*');
    });
  });
}

/** The head stub's frames stay; its bridge stops and ours answers for all three APIs. */
function takeOverHeadStub() {
  const stub = scope.__pageConsentStub;
  if (!stub) return;
  delete scope.__pageConsentStub;
  stub.off();
  for (const api of [TCF_API, GPP_API, USP_API]) bridgeFrames(api);
}

/** A queue stub for `api` (unless the page has one: the head stub, or another CMP's), its locator and bridge. */
export function installStub(api: SignalApi, ping: () => unknown): void {
  takeOverHeadStub();
  if (!scope[api.name]) {
    const queue: unknown[][] = [];
    scope[api.name] = (...args) => {
      if (!args.length) return queue;
      const callback = args[api.callbackIndex];
      if (args[0] === 'ping' && typeof callback === 'function') callback(ping(), true);
      else queue.push(args);
    };
  }
  installLocator(api);
}

/** The `<name>Locator` frame vendors in child frames look for (unless there is one), and the bridge answering them. */
export function installLocator(api: SignalApi): void {
  takeOverHeadStub();
  const name = `${api.name}Locator`;
  if (!document.querySelector(`iframe[name="${name}"]`)) {
    const locator = document.createElement('iframe');
    locator.name = name;
    locator.title = name;
    locator.hidden = true;
    document.body.append(locator);
  }
  bridgeFrames(api);
}

/** Wraps the full API installed as `api.name`: a command the API does not define gets `success: false` and never reaches the library. */
export function guardApi(api: SignalApi): void {
  const inner = scope[api.name];
  if (!inner) return;
  scope[api.name] = (...args) => {
    if (isApiCommand(api, args[0])) return inner(...args);
    const callback = args[api.callbackIndex];
    if (typeof callback === 'function') callback(null, false);
  };
}
