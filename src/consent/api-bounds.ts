/**
 * What the IAB API stubs and bridges hold for others (docs/reliability.md, "Bounds of the ad-tech
 * APIs"): only frames inside this window are answered, a frame's message is read only as a JSON
 * copy of at most `FRAME_MESSAGE_LIMIT` characters, a stub keeps at most `STUB_QUEUE_LIMIT`
 * calls, and a frame holds at most `FRAME_LISTENER_LIMIT` listeners. Shared by the head stub,
 * the extension's stubs and the full bridges, so all draw the lines alike; a call past a bound
 * is refused as the IAB APIs fail, its callback gets `success: false`. No side effects.
 */
type ApiFunction = (...args: unknown[]) => unknown;

/** The most calls a stub keeps for the full API (the page's and its frames' together). */
export const STUB_QUEUE_LIMIT = 100;
/**
 * The most listeners one frame has at a time through a bridge: per API in the full bridges
 * (there with the frame's calls not answered yet), all APIs together in the head stub.
 */
export const FRAME_LISTENER_LIMIT = 32;
/** The longest message of a frame that stubs and bridges read, as JSON text (a call naming 1,500 vendor ids fits). */
export const FRAME_MESSAGE_LIMIT = 8192;

/** Whether `source` is a frame inside this window, at any depth (not a parent, an opener, this window or nothing). */
export function isDescendant(source: unknown): boolean {
  for (let frame = source as Window | null; frame && frame !== frame.parent; )
    if ((frame = frame.parent) === self) return true;
  return false;
}

/**
 * A message's data as a fresh JSON copy (text parsed, an object copied: nothing of the message
 * is kept), or undefined when it is not JSON or longer than `FRAME_MESSAGE_LIMIT`. Copying an
 * object visits at most that many values and no typed array (`JSON.stringify` would list every
 * index of one first: 4 s for ten million); a BigInt stops it.
 */
export function copyOfMessage(data: unknown): unknown {
  let values = 0;
  try {
    const text =
      typeof data === 'string'
        ? data
        : JSON.stringify(data, (_key, value) =>
            ArrayBuffer.isView(value) || ++values > FRAME_MESSAGE_LIMIT ? 0n : value,
          );
    if (text.length <= FRAME_MESSAGE_LIMIT) return JSON.parse(text);
  } catch {}
}

/** A queue stub: `ping` answered at once (when given), other calls kept in order up to the bound, the rest refused; calls without a callback are dropped. */
export function queueStub(callbackIndex: number, ping?: () => unknown): ApiFunction {
  const queue: unknown[][] = [];
  return (...args) => {
    if (!args.length) return queue;
    const callback = args[callbackIndex];
    if (typeof callback === 'function')
      args[0] === 'ping' && ping
        ? callback(ping(), true)
        : queue.length < STUB_QUEUE_LIMIT
          ? queue.push(args)
          : callback(null, false);
  };
}

/**
 * Whether a stub's bridge passes a frame's call on: a stub cannot remove listeners (it does not
 * know whose they are), and a frame that asked for `FRAME_LISTENER_LIMIT` listeners through it
 * (counted in `listeners`) gets nothing more queued.
 */
export function admitStubCall(
  call: Record<string, unknown>,
  source: object,
  listeners: WeakMap<object, number>,
): boolean {
  const count = listeners.get(source) || 0;
  if (call.command === 'addEventListener') listeners.set(source, count + 1);
  return call.command !== 'removeEventListener' && count < FRAME_LISTENER_LIMIT;
}
