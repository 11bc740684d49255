/**
 * The action service as the runtime core ships it: the delegated listeners, the interaction
 * times (the change-size arbiter reads them) and the registered handlers. The parser and the
 * runner are the actions part (`v0/page-runtime-actions.<hash>.js`), requested at the first
 * pointer, key or click event on an element with `on` (or its descendant) and at the first
 * `on` handler a component triggers; the event that asked for it is replayed once it arrives.
 * A part that fails to load is one diagnostic, and the actions do not run.
 */
import { type ActionsOptions, type ActionsService, INTERACTIONS } from './actions.ts';
import type { ActionHandler } from './types.ts';

export type ActionsPart = { createActions(options: ActionsOptions): ActionsService };

export function createLazyActions(
  options: ActionsOptions,
  load: () => Promise<ActionsPart | undefined>,
): ActionsService {
  const handlers = new WeakMap<Element, Map<string, ActionHandler>>();
  const interactions = new WeakMap<Element, number>();
  let service: ActionsService | undefined;
  let loading: Promise<ActionsService | undefined> | undefined;
  const ensure = () =>
    (loading ??= load().then((part) => (service = part?.createActions({ ...options, handlers, interactions }))));
  const hasActions = (start: Element | null) => !!start?.closest('[on]');

  const handle = (event: Event) => {
    if (service) return service.handle(event);
    const start = event.target as Node | null;
    const element = start?.nodeType === 1 ? (start as Element) : (start?.parentElement ?? null);
    const time = Date.now();
    if (event.type !== 'change') for (let node = element; node; node = node.parentElement) interactions.set(node, time);
    if (!hasActions(element)) return;
    // Pointer and touch only request the part, so that it is often there by the click.
    const loaded = ensure();
    if (event.type !== 'pointerdown' && event.type !== 'touchstart') loaded.then((ready) => ready?.handle(event));
  };

  return {
    register(element, name, handler) {
      if (service) return service.register(element, name, handler);
      handlers.set(element, (handlers.get(element) ?? new Map()).set(name, handler));
    },
    trigger(element, eventName, event) {
      if (service) service.trigger(element, eventName, event);
      else if (element.hasAttribute('on')) ensure().then((ready) => ready?.trigger(element, eventName, event));
    },
    start() {
      for (const type of INTERACTIONS)
        options.document.addEventListener(type, handle, {
          capture: true,
          passive: type === 'touchstart' || type === 'pointerdown',
        });
    },
    lastInteraction: (element) => interactions.get(element) ?? Number.NEGATIVE_INFINITY,
    handle,
  };
}
