/**
 * The IAB queue stubs (`__tcfapi`, `__gpp`): a function that queues calls until the full API
 * (a lazy bundle) replaces it and hands it the queue, answers `ping` at once, a locator frame
 * named for vendors in child frames, and the postMessage bridge that answers their calls
 * (`__uspapi` uses the locator and bridge too).
 */
import { isRecord, own } from '../wire/values.ts';

type Callback = (value: unknown, success: boolean) => void;
type ApiFunction = (...args: unknown[]) => unknown;

export type LocatorOptions = {
  /** `__tcfapi`, `__gpp` or `__uspapi`; the locator, call and return names are derived from it. */
  readonly name: string;
  /** Arguments of a call from a frame's `{command, parameter, version}`. */
  readonly argumentsOf: (call: Record<string, unknown>, callback: Callback) => unknown[];
};

export type StubOptions = LocatorOptions & {
  /** The index of the callback among the arguments (TCF 2, GPP 1). */
  readonly callbackIndex: number;
  readonly ping: () => unknown;
};

const scope = self as unknown as Record<string, ApiFunction | undefined>;

/** Whether `source` is a frame inside this window (at any depth). */
function isDescendant(source: MessageEventSource | null): boolean {
  for (let frame = source as Window | null; frame && frame !== frame.parent; frame = frame.parent) {
    if (frame.parent === self) return true;
  }
  return false;
}

/** Answers `{<name>Call: {...}}` messages of descendant frames with `{<name>Return: {...}}`. */
function bridgeFrames({ name, argumentsOf }: LocatorOptions) {
  addEventListener('message', (event) => {
    let data = event.data;
    const isText = typeof data === 'string';
    try {
      if (isText) data = JSON.parse(data);
    } catch {}
    const call = isRecord(data) ? own(data, `${name}Call`) : undefined;
    if (!isRecord(call) || !isDescendant(event.source)) return;
    const reply: Callback = (returnValue, success) => {
      const message = { [`${name}Return`]: { returnValue, success, callId: call.callId } };
      (event.source as Window).postMessage(isText ? JSON.stringify(message) : message, '*');
    };
    scope[name]?.(...argumentsOf(call, reply));
  });
}

export function installStub(options: StubOptions): void {
  const { name, callbackIndex, ping } = options;
  if (scope[name]) return;
  const queue: unknown[][] = [];
  scope[name] = (...args) => {
    if (!args.length) return queue;
    const callback = args[callbackIndex];
    if (args[0] === 'ping' && typeof callback === 'function') callback(ping(), true);
    else queue.push(args);
  };
  installLocator(options);
}

/** The `<name>Locator` frame vendors in child frames look for, and the bridge answering them. */
export function installLocator(options: LocatorOptions): void {
  const { name } = options;
  const locator = document.createElement('iframe');
  locator.name = `${name}Locator`;
  locator.title = locator.name;
  locator.hidden = true;
  document.body.append(locator);
  bridgeFrames(options);
}
