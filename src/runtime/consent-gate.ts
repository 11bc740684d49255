/**
 * The consent gate: the runtime asks it, per blocked element, whether the element may build.
 * The consent extension installs the real answer (a ConsentProvider); until it does, the gate
 * is open only when the page has no <page-consent> element once the document is parsed. Only
 * the `<page-consent>` element's own implementation may install it, once (docs/runtime.md): any
 * other or later registration is refused with a diagnostic. Before it, the element's replayed
 * return record opens the gate for the requests it found allowed.
 */
import { deferred } from './deferred.ts';
import { diagnostic, type Diagnostic } from '../wire/diagnostic.ts';
import type { BlockRequest, ConsentProvider, ConsentSnapshot, GateDecision } from './types.ts';
import { requestKeyOf, type ReturnLines } from '../wire/return-record.ts';

export type ConsentGate = {
  decide(request: BlockRequest): GateDecision;
  subscribe(listener: () => void): () => void;
  /** `isConsentElement`: the caller is the built `<page-consent>` implementation. */
  setProvider(provider: ConsentProvider, isConsentElement: boolean): void;
  snapshot(): ConsentSnapshot | null;
  /** The installed provider; null once the page is parsed without `<page-consent>`. */
  readonly whenProvider: Promise<ConsentProvider | null>;
  /**
   * Until the provider is installed, allows the requests a return record's entry marks `+` and
   * tells the subscribers; `onMiss` runs for each request the entry does not know.
   */
  replay(lines: ReturnLines, onMiss: () => void): void;
};

export function createConsentGate(document: Document, onDiagnostic: (d: Diagnostic) => void): ConsentGate {
  let provider: ConsentProvider | null = null;
  let replayed: ReturnLines = [];
  let miss = () => {};
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const { promise: providerReady, resolve: resolveProvider } = deferred<ConsentProvider | null>();
  const isParsed = () => document.readyState !== 'loading';
  const hasConsentElement = () => document.querySelector('page-consent') !== null;
  const onParsed = () => {
    if (!hasConsentElement()) resolveProvider(null);
    notify();
  };
  if (isParsed()) queueMicrotask(onParsed);
  else document.addEventListener('DOMContentLoaded', onParsed, { once: true });

  return {
    decide(request) {
      if (provider) return provider.decide(request);
      // Keyed only while a return record is replayed (never on a first visit).
      const key = replayed.length ? requestKeyOf(request) : '';
      if (replayed.includes(`+${key}`)) return 'allow';
      if (!replayed.includes(`-${key}`)) miss();
      return isParsed() && !hasConsentElement() ? 'allow' : 'pending';
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setProvider(next, isConsentElement) {
      if (provider || !isConsentElement) {
        const got = provider ? 'a second registration' : 'a registration from another element';
        return onDiagnostic(diagnostic('consent-provider-refused', 'one provider, from <page-consent>', got));
      }
      provider = next;
      resolveProvider(next);
      next.subscribe(notify);
      notify();
    },
    snapshot: () => provider?.snapshot() ?? null,
    whenProvider: providerReady,
    replay(lines, onMiss) {
      replayed = lines;
      miss = onMiss;
      notify();
    },
  };
}
