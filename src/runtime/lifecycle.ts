/**
 * Element lifecycle: layout box, consent gate, build, layout near the viewport, unlayout.
 * One element's failure is reported and never stops the others.
 */
import { diagnostic, type Diagnostic } from '../wire/diagnostic.ts';
import type { ConsentGate } from './consent-gate.ts';
import { readBlockRequest } from '../wire/block-markers.ts';
import { deferredMap } from './deferred.ts';
import { parseLayout } from '../wire/layout.ts';
import { applyLayout } from './layout.ts';
import { installStyles } from './styles.ts';
import type { PageElement } from './element.ts';
import type { BlockRequest, PageElementConstructor, PageElementInstance, PageRuntime } from './types.ts';

type Entry = {
  readonly instance: PageElement;
  readonly request: BlockRequest | null;
  phase: 'waiting' | 'building' | 'built' | 'failed';
  isLaidOut: boolean;
  isNear: boolean;
};

export type LifecycleOptions = {
  readonly runtime: PageRuntime;
  readonly gate: ConsentGate;
  readonly metaBlockedTags: () => ReadonlySet<string>;
  readonly report: (source: Element, d: Diagnostic) => void;
};

export function createLifecycle({ runtime, gate, metaBlockedTags, report }: LifecycleOptions) {
  const entries = new WeakMap<Element, Entry>();
  const gated = new Set<Entry>();
  const deferredOf = deferredMap<Element, void>(new WeakMap());
  let isStyled = false;
  const isAllowed = (entry: Entry) => !entry.request || gate.decide(entry.request) === 'allow';

  /** Runs one callback of an element; an exception is reported under `code` and yields false. */
  const guard = async ({ instance }: Entry, code: string, callback: () => void | Promise<void>) => {
    try {
      await callback.call(instance);
      return true;
    } catch (error) {
      report(instance.element, diagnostic(code, 'no exception', String(error)));
      return false;
    }
  };

  const layout = async (entry: Entry) => {
    if (entry.phase !== 'built' || entry.isLaidOut || !entry.isNear || !isAllowed(entry)) return;
    entry.isLaidOut = true;
    if (!(await guard(entry, 'layout-failed', entry.instance.layoutCallback))) return;
    // Unlaid (removed, consent withdrawn) while an asynchronous layout ran: undo what it showed.
    if (entry.isLaidOut) entry.instance.element.classList.add('page-laid-out');
    else guard(entry, 'unlayout-failed', entry.instance.unlayoutCallback);
  };

  const unlayout = (entry: Entry) => {
    if (!entry.isLaidOut) return;
    entry.isLaidOut = false;
    entry.instance.element.classList.remove('page-laid-out');
    guard(entry, 'unlayout-failed', entry.instance.unlayoutCallback);
  };

  const observer = new IntersectionObserver(
    (records) => {
      for (const record of records) {
        const entry = entries.get(record.target);
        if (entry && (entry.isNear = record.isIntersecting)) layout(entry);
      }
    },
    { rootMargin: '100% 25%' },
  );

  /** Lays out near the viewport; `nodisplay` elements (never intersecting) at once. */
  const watch = (entry: Entry) => {
    if (entry.instance.layout !== 'nodisplay') return observer.observe(entry.instance.element);
    entry.isNear = true;
    layout(entry);
  };

  const build = async (entry: Entry) => {
    const { element } = entry.instance;
    entry.phase = 'building';
    const isBuilt = await guard(entry, 'build-failed', entry.instance.buildCallback);
    entry.phase = isBuilt ? 'built' : 'failed';
    element.classList.add(isBuilt ? 'page-built' : 'page-error');
    if (!isBuilt) return;
    deferredOf(element).resolve();
    watch(entry);
  };

  const evaluate = (entry: Entry) => {
    const decision = entry.request ? gate.decide(entry.request) : 'allow';
    if (decision === 'deny') unlayout(entry);
    else if (decision === 'allow') entry.phase === 'waiting' ? build(entry) : layout(entry);
  };

  gate.subscribe(() => gated.forEach(evaluate));

  const create = (element: HTMLElement, Implementation: PageElementConstructor) => {
    const spec = parseLayout({
      layout: element.getAttribute('layout'),
      width: element.getAttribute('width'),
      height: element.getAttribute('height'),
    });
    const instance = new Implementation(element, runtime) as PageElement;
    const problem = spec.diagnostics[0];
    if (problem || !spec.value || !instance.isLayoutSupported(spec.value.layout)) {
      element.classList.add('page-error');
      return report(element, problem ?? diagnostic('unsupported-layout', 'a supported layout', spec.value?.layout));
    }
    instance.layout = spec.value.layout;
    // The layout stylesheet comes with the first element that needs it (`nodisplay` is inline): a
    // page without our elements, or with only a consent element, gets none.
    if (!isStyled && instance.layout !== 'nodisplay') {
      installStyles(element.ownerDocument);
      isStyled = true;
    }
    applyLayout(element, spec.value);
    const request = instance.isBlockable()
      ? readBlockRequest(element, metaBlockedTags(), (d) => report(element, d))
      : null;
    const entry: Entry = { instance, request, phase: 'waiting', isLaidOut: false, isNear: false };
    entries.set(element, entry);
    return entry;
  };

  const connect = (element: HTMLElement, Implementation: PageElementConstructor) => {
    const entry = entries.get(element) ?? create(element, Implementation);
    if (!entry) return;
    if (entry.request) gated.add(entry);
    // The gate may have opened while a waiting element was out of the document.
    if (entry.phase === 'waiting') evaluate(entry);
    else if (entry.phase === 'built') watch(entry);
  };

  const disconnect = (element: HTMLElement) => {
    const entry = entries.get(element);
    if (!entry) return;
    gated.delete(entry);
    observer.unobserve(element);
    entry.isNear = false;
    unlayout(entry);
  };

  return {
    define(tag: string, Implementation: PageElementConstructor) {
      if (customElements.get(tag)) {
        return report(document.documentElement, diagnostic('duplicate-definition', `one definition of ${tag}`, 'two'));
      }
      customElements.define(
        tag,
        class extends HTMLElement {
          connectedCallback() {
            // A throwing constructor or isLayoutSupported is reported like a failed build.
            try {
              connect(this, Implementation);
            } catch (error) {
              this.classList.add('page-error');
              report(this, diagnostic('build-failed', 'no exception', String(error)));
            }
          }
          disconnectedCallback() {
            disconnect(this);
          }
        },
      );
    },
    whenBuilt: (element: Element) => deferredOf(element).promise,
    /** Whether `instance` is the implementation the runtime created for its element. */
    isImplementation: (instance: PageElementInstance | undefined) =>
      !!instance && entries.get(instance.element)?.instance === instance,
  };
}
