/**
 * What the full APIs (the TCF and GPP parts) put around the IAB libraries (docs/consent.md,
 * "Signals for ad tech"): a command the spec does not define is answered `success: false` and
 * never reaches a library (neither from the stub's queue nor later), and one bridge for all three
 * APIs replaces the stubs' bridges, through which a frame removes only the listeners it added.
 */
import { frameCallOf } from './api-stub.ts';
import { GPP_API, type SignalApi, type StubScope, TCF_API, USP_API } from './signal-apis.ts';

type ApiFunction = (...args: unknown[]) => unknown;
const scope = self as unknown as Record<string, ApiFunction | undefined> & StubScope;

const COMMANDS: Readonly<Record<SignalApi['name'], readonly string[]>> = {
  __tcfapi: ['ping', 'getTCData', 'addEventListener', 'removeEventListener'],
  __gpp: ['ping', 'addEventListener', 'removeEventListener', 'hasSection', 'getSection', 'getField'],
  __uspapi: ['getUSPData'],
};

/** Whether `command` is one the API defines (a string compare: `constructor` is not one). */
export const isApiCommand = (api: SignalApi, command: unknown): boolean => typeof command === 'string' && COMMANDS[api.name].includes(command);

function refuse(api: SignalApi, args: unknown[]) {
  const callback = args[api.callbackIndex];
  if (typeof callback === 'function') callback(null, false);
}

/** Answers the stub's queued calls of undefined commands; the library then takes the rest (call before constructing it). */
export function filterQueue(api: SignalApi): void {
  const stub = scope[api.name];
  const queued = typeof stub === 'function' ? stub() : undefined;
  const kept = (Array.isArray(queued) ? queued : []).filter((args: unknown[]) => isApiCommand(api, args[0]) || refuse(api, args));
  // The library asks `__gpp()` for the queue, and `__gpp('events')` for a stub's listeners (ours keeps none).
  scope[api.name] = (...args) => (args.length ? undefined : kept);
}

/** Wraps the library installed as `api.name`: undefined commands get `success: false`. */
export function guardApi(api: SignalApi): void {
  const inner = scope[api.name];
  scope[api.name] = (...args) => (isApiCommand(api, args[0]) ? inner?.(...args) : refuse(api, args));
}

/** A frame's call: only defined commands, only its own listeners removed; its new listener ids are noted. */
function bridge(api: SignalApi, owned: WeakMap<object, Set<unknown>>) {
  return (event: MessageEvent) => {
    const [call, reply] = frameCallOf(event, api.name) ?? [];
    if (!call || !reply) return;
    const ids = owned.get(event.source!) ?? new Set();
    owned.set(event.source!, ids);
    if (!isApiCommand(api, call.command)) return reply(null, false);
    if (call.command === 'removeEventListener' && !ids.has(call.parameter)) return reply(false, false);
    scope[api.name]?.(
      ...api.argumentsOf(call, (value, success) => {
        const id = call.command === 'addEventListener' && value && typeof value === 'object' ? (value as { listenerId?: unknown }).listenerId : undefined;
        if (id !== undefined && id !== null) ids.add(id);
        reply(value, success);
      }),
    );
  };
}

/** The stubs' bridges stop; ours answers all three APIs (once per page, whichever part comes first). */
export function takeOverBridges(): void {
  if (scope.__pageConsentBridge) return;
  scope.__pageConsentBridge = true;
  scope.__pageConsentStub?.off();
  for (const api of [TCF_API, GPP_API, USP_API]) addEventListener('message', bridge(api, new WeakMap()));
}
