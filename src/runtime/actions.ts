/**
 * The action service: elements expose actions by name; one delegated listener per event type
 * runs the `on` attributes from the event target up. Calls to a `page-*` element that has not
 * registered its actions yet wait for them until it has built. Publisher mistakes and handler errors
 * are reported, never thrown into the page.
 */
import { type ActionArgument, type ActionCall, parseActions } from '../wire/actions.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { ActionArguments, ActionHandler, ActionValue, PageRuntime } from './types.ts';

export type ActionsService = {
  register(element: Element, name: string, handler: ActionHandler): void;
  /** Runs the element's `on` handlers for `eventName` (custom events such as `consent-change`). */
  trigger(element: Element, eventName: string, event: Event | null): void;
  /** Installs the delegated listeners on the document (once). */
  start(): void;
  /** Time (from `now`) of the last click/keydown/touchstart/pointerdown inside the element; -Infinity when none. */
  lastInteraction(element: Element): number;
  /** Runs one event through the `on` attributes (the delegated listener; the runtime core replays through it). */
  handle(event: Event): void;
};

export type ActionsOptions = {
  readonly document: Document;
  readonly report: PageRuntime['report'];
  readonly now?: () => number;
  /** Resolves when a `page-*` element has built; calls still waiting then name unknown actions. */
  readonly whenBuilt: (element: Element) => Promise<unknown>;
  /** Handlers and interaction times registered before this service existed (the runtime core's). */
  readonly handlers?: WeakMap<Element, Map<string, ActionHandler>>;
  readonly interactions?: WeakMap<Element, number>;
};

type Request = {
  readonly source: Element;
  readonly action: string;
  readonly args: ActionArguments;
  readonly event: Event | null;
};

export const INTERACTIONS = ['click', 'keydown', 'touchstart', 'pointerdown', 'change'];
/** Elements whose keyboard activation already fires a click. */
const NATIVE_CONTROLS = 'button,input,select,textarea,a[href]';

export function createActions(options: ActionsOptions): ActionsService {
  const {
    document,
    report,
    now = Date.now,
    whenBuilt,
    handlers = new WeakMap(),
    interactions = new WeakMap(),
  } = options;
  const waiting = new WeakMap<Element, Request[]>();
  const parsed = new WeakMap<Element, { text: string; calls: ReadonlyMap<string, readonly ActionCall[]> }>();
  let isStarted = false;

  const unknownAction = (target: Element, request: Request) => {
    const names = [...(handlers.get(target)?.keys() ?? [])].join(', ') || 'none';
    report(request.source, diagnostic('unknown-action', `an action of #${target.id} (${names})`, request.action));
  };

  const flush = (target: Element) => {
    for (const request of waiting.get(target) ?? []) unknownAction(target, request);
    waiting.delete(target);
  };

  function invoke(target: Element, handler: ActionHandler, request: Request): void {
    const fail = (error: unknown) =>
      report(target, diagnostic('action-failed', `${request.action} to complete`, String(error)));
    try {
      const result: unknown = handler(request.args, request.event);
      if (result instanceof Promise) result.catch(fail);
    } catch (error) {
      fail(error);
    }
  }

  function run(source: Element, call: ActionCall, event: Event | null): void {
    const target = document.getElementById(call.target);
    if (!target) {
      report(source, diagnostic('unknown-action-target', `an element with id "${call.target}"`, undefined));
      return;
    }
    const request = { source, action: call.action, args: resolveArguments(call.args, event), event };
    const actions = handlers.get(target);
    const handler = actions?.get(call.action);
    if (handler) invoke(target, handler, request);
    // A page element that failed its build (`page-error`) never will: no queue for it.
    else if (actions || !target.localName.startsWith('page-') || target.classList.contains('page-error'))
      unknownAction(target, request);
    else {
      if (!waiting.has(target)) whenBuilt(target).then(() => flush(target));
      waiting.set(target, [...(waiting.get(target) ?? []), request]);
    }
  }

  function trigger(element: Element, eventName: string, event: Event | null): void {
    const text = element.getAttribute('on');
    if (text === null) return;
    let entry = parsed.get(element);
    if (entry?.text !== text) {
      const result = parseActions(text);
      for (const problem of result.diagnostics) report(element, problem);
      parsed.set(element, (entry = { text, calls: result.value }));
    }
    for (const call of entry.calls.get(eventName) ?? []) run(element, call, event);
  }

  function onEvent(event: Event): void {
    const { type } = event;
    const names =
      type === 'click'
        ? ['tap', 'click']
        : type === 'change'
          ? ['change']
          : type === 'keydown' && isKeyboardTap(event)
            ? ['tap']
            : [];
    const time = now();
    const start = event.target as Node | null;
    for (
      let element = start?.nodeType === 1 ? (start as Element) : (start?.parentElement ?? null);
      element;
      element = element.parentElement
    ) {
      if (type !== 'change') interactions.set(element, time);
      for (const name of names) trigger(element, name, event);
    }
  }

  return {
    register(element, name, handler) {
      const actions = handlers.get(element) ?? new Map<string, ActionHandler>();
      handlers.set(element, actions.set(name, handler));
      const queued = waiting.get(element) ?? [];
      waiting.set(
        element,
        queued.filter((request) => request.action !== name),
      );
      for (const request of queued) if (request.action === name) invoke(element, handler, request);
    },
    trigger,
    start() {
      if (isStarted) return;
      isStarted = true;
      for (const type of INTERACTIONS) {
        document.addEventListener(type, onEvent, {
          capture: true,
          passive: type === 'touchstart' || type === 'pointerdown',
        });
      }
    },
    lastInteraction: (element) => interactions.get(element) ?? Number.NEGATIVE_INFINITY,
    handle: onEvent,
  };
}

/** Enter or Space on a `role=button` element that is not a native control; Space does not scroll. */
function isKeyboardTap(event: Event): boolean {
  const { key, target } = event as KeyboardEvent;
  const element = target as Element | null;
  if (
    (key !== 'Enter' && key !== ' ') ||
    element?.getAttribute?.('role') !== 'button' ||
    element.matches(NATIVE_CONTROLS)
  )
    return false;
  if (key === ' ') event.preventDefault();
  return true;
}

function resolveArguments(args: Readonly<Record<string, ActionArgument>>, event: Event | null): ActionArguments {
  const resolved: Record<string, ActionValue> = {};
  for (const [name, value] of Object.entries(args)) {
    const result = typeof value === 'object' ? readEvent(event, value.path) : value;
    if (result !== undefined) resolved[name] = result;
  }
  return resolved;
}

/** `event.name...` from the event's detail, else its target, else the event itself; primitives only. */
function readEvent(event: Event | null, path: readonly string[]): ActionValue | undefined {
  const sources: unknown[] = [(event as CustomEvent | null)?.detail, event?.target, event];
  let value = sources.find((source) => typeof source === 'object' && source !== null && path[0]! in source);
  for (const key of path) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}
