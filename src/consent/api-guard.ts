/**
 * What the full APIs (the TCF and GPP parts) put around the IAB libraries (docs/consent.md,
 * "Signals for ad tech"): a command the spec does not define is answered `success: false` and
 * never reaches a library (neither from the stub's queue nor later), and one bridge for all three
 * APIs replaces the stubs' bridges, through which a frame removes only the listeners it added
 * and holds at most `FRAME_LISTENER_LIMIT` listeners and unanswered calls per API
 * (docs/reliability.md, "Bounds of the ad-tech APIs").
 */
import type { DiagnosticLevel } from '../runtime/index.ts';
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import { FRAME_LISTENER_LIMIT } from './api-bounds.ts';
import { frameCallOf } from './api-stub.ts';
import { GPP_API, type SignalApi, type StubScope, TCF_API, USP_API } from './signal-apis.ts';

type Report = (d: Diagnostic, level?: DiagnosticLevel) => void;

type ApiFunction = (...args: unknown[]) => unknown;
const scope = self as unknown as Record<string, ApiFunction | undefined> & StubScope;

const COMMANDS: Readonly<Record<SignalApi['name'], readonly string[]>> = {
  __tcfapi: ['ping', 'getTCData', 'addEventListener', 'removeEventListener'],
  __gpp: ['ping', 'addEventListener', 'removeEventListener', 'hasSection', 'getSection', 'getField'],
  __uspapi: ['getUSPData'],
};

/** Whether `command` is one the API defines (a string compare: `constructor` is not one). */
export const isApiCommand = (api: SignalApi, command: unknown): boolean =>
  typeof command === 'string' && COMMANDS[api.name].includes(command);

function refuse(api: SignalApi, args: unknown[]) {
  const callback = args[api.callbackIndex];
  if (typeof callback === 'function') callback(null, false);
}

/** Answers the stub's queued calls of undefined commands; the library then takes the rest (call before constructing it). */
export function filterQueue(api: SignalApi): void {
  const stub = scope[api.name];
  const queued = typeof stub === 'function' ? stub() : undefined;
  const kept = (Array.isArray(queued) ? queued : []).filter(
    (args: unknown[]) => isApiCommand(api, args[0]) || refuse(api, args),
  );
  // The library asks `__gpp()` for the queue, and `__gpp('events')` for a stub's listeners (ours keeps none).
  scope[api.name] = (...args) => (args.length ? undefined : kept);
}

/** Wraps the library installed as `api.name`: undefined commands get `success: false`. */
export function guardApi(api: SignalApi): void {
  const inner = scope[api.name];
  scope[api.name] = (...args) => (isApiCommand(api, args[0]) ? inner?.(...args) : refuse(api, args));
}

/** What one frame holds of one API: the listener ids it was given, and how many listeners and unanswered calls it has. */
type FrameShare = { readonly ids: Set<unknown>; open: number };

/**
 * A frame's call: only defined commands, only its own listeners removed, at most
 * `FRAME_LISTENER_LIMIT` listeners and unanswered calls (a listener counts until it is removed,
 * another call until its first answer, `ping` not at all; past the bound: `success: false`, and
 * one diagnostic per API and page); its new listener ids are noted.
 */
function bridge(api: SignalApi, report: Report) {
  const shares = new WeakMap<object, FrameShare>();
  let isReported = false;
  return (event: MessageEvent) => {
    const [call, reply] = frameCallOf(event, api.name) ?? [];
    if (!call || !reply) return;
    const { command } = call;
    const share = shares.get(event.source!) ?? { ids: new Set(), open: 0 };
    shares.set(event.source!, share);
    const isListener = command === 'addEventListener';
    if (!isApiCommand(api, command)) return reply(null, false);
    if (command === 'removeEventListener') {
      if (!share.ids.delete(call.parameter)) return reply(false, false);
      share.open--;
    } else if (command !== 'ping' && share.open++ >= FRAME_LISTENER_LIMIT) {
      share.open--;
      if (!isReported)
        report(
          diagnostic(
            'consent-frame-listeners-exceeded',
            `at most ${FRAME_LISTENER_LIMIT} per frame on ${api.name}`,
            share.open + 1,
          ),
        );
      isReported = true;
      return reply(null, false);
    }
    // A one-shot call (not ping, not a removal) is open until its first answer.
    let isOpen = !isListener && command !== 'ping' && command !== 'removeEventListener';
    scope[api.name]?.(
      ...api.argumentsOf(call, (value, success) => {
        const id =
          isListener && value && typeof value === 'object' ? (value as { listenerId?: unknown }).listenerId : undefined;
        if (id !== undefined && id !== null) share.ids.add(id);
        if (isOpen) share.open--;
        isOpen = false;
        reply(value, success);
      }),
    );
  };
}

/** The stubs' bridges stop; ours answers all three APIs (once per page, whichever part comes first). */
export function takeOverBridges(report: Report): void {
  if (scope.__pageConsentBridge) return;
  scope.__pageConsentBridge = true;
  scope.__pageConsentStub?.off();
  // A bridge's one diagnostic (consent-frame-listeners-exceeded) is a warning (src/wire/severity.ts).
  for (const api of [TCF_API, GPP_API, USP_API])
    addEventListener(
      'message',
      bridge(api, (d) => report(d, 'warn')),
    );
}
