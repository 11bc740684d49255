/**
 * Element lifecycle: layout box, consent gate, build, layout near the viewport, unlayout.
 * One element's failure is reported and never stops the others.
 */
import { diagnostic, type Diagnostic } from './diagnostics.ts';
import { readBlockRequest, type ConsentGate } from './consent-gate.ts';
import { deferredMap } from './deferred.ts';
import { applyLayout, parseLayout } from './layout.ts';
import type { PageElement } from './element.ts';
import type { BlockRequest, PageElementConstructor, PageRuntime } from './types.ts';

type Phase = 'waiting' | 'building' | 'built' | 'failed';

type Entry = {
  readonly instance: PageElement;
  readonly request: BlockRequest | null;
  phase: Phase;
  isLaidOut: boolean;
  isNear: boolean;
  built: () => void;
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
  const fail = (entry: Entry, code: string, error: unknown) => {
    entry.phase = 'failed';
    entry.instance.element.classList.add('page-error');
    report(entry.instance.element, diagnostic(code, 'no exception', String(error)));
  };

  const layout = async (entry: Entry) => {
    const allowed = !entry.request || gate.decide(entry.request) === 'allow';
    if (entry.phase !== 'built' || entry.isLaidOut || !entry.isNear || !allowed) return;
    entry.isLaidOut = true;
    try {
      await entry.instance.layoutCallback();
      entry.instance.element.classList.add('page-laid-out');
    } catch (error) {
      report(entry.instance.element, diagnostic('layout-failed', 'no exception', String(error)));
    }
  };

  const unlayout = (entry: Entry) => {
    if (!entry.isLaidOut) return;
    entry.isLaidOut = false;
    entry.instance.element.classList.remove('page-laid-out');
    try {
      entry.instance.unlayoutCallback();
    } catch (error) {
      report(entry.instance.element, diagnostic('unlayout-failed', 'no exception', String(error)));
    }
  };

  const observer = new IntersectionObserver(
    (records) => {
      for (const record of records) {
        const entry = entries.get(record.target);
        if (!entry) continue;
        entry.isNear = record.isIntersecting;
        if (entry.isNear) layout(entry);
      }
    },
    { rootMargin: '100% 25%' },
  );

  const build = async (entry: Entry) => {
    const { instance } = entry;
    entry.phase = 'building';
    try {
      await instance.buildCallback();
    } catch (error) {
      return fail(entry, 'build-failed', error);
    }
    entry.phase = 'built';
    instance.element.classList.add('page-built');
    entry.built();
    if (instance.layout === 'nodisplay') {
      entry.isNear = true;
      layout(entry);
    } else observer.observe(instance.element);
  };

  const evaluate = (entry: Entry) => {
    const decision = entry.request ? gate.decide(entry.request) : 'allow';
    if (decision === 'allow') {
      if (entry.phase === 'waiting') build(entry);
      else layout(entry);
    } else if (decision === 'deny') unlayout(entry);
  };

  gate.subscribe(() => gated.forEach(evaluate));

  const connect = (element: HTMLElement, Implementation: PageElementConstructor) => {
    const known = entries.get(element);
    if (known) {
      if (known.request) gated.add(known);
      if (known.phase === 'built') observer.observe(element);
      return;
    }
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
    applyLayout(element, spec.value);
    const request = instance.isBlockable()
      ? readBlockRequest(element, metaBlockedTags(), (d) => report(element, d))
      : null;
    const built = deferredOf(element).resolve;
    const entry: Entry = { instance, request, phase: 'waiting', isLaidOut: false, isNear: false, built };
    entries.set(element, entry);
    if (request) gated.add(entry);
    evaluate(entry);
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
            connect(this, Implementation);
          }
          disconnectedCallback() {
            disconnect(this);
          }
        },
      );
    },
    whenBuilt: (element: Element) => deferredOf(element).promise,
  };
}
