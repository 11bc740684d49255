/**
 * The consent gate: the runtime asks it, per blocked element, whether the element may build.
 * The consent extension installs the real answer (a ConsentProvider); until it does, the gate
 * is open only when the page has no <page-consent> element once the document is parsed. Only
 * the `<page-consent>` element's own implementation may install it, once (PRODUCT 2): any
 * other or later registration is refused with a diagnostic.
 */
import { deferred } from './deferred.ts';
import { diagnostic, type Diagnostic } from './diagnostics.ts';
import type {
  BlockRequest,
  ConsentApi,
  ConsentProvider,
  ConsentSnapshot,
  GateDecision,
} from './types.ts';

export { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';

export type ConsentGate = {
  decide(request: BlockRequest): GateDecision;
  subscribe(listener: () => void): () => void;
  /** `isConsentElement`: the caller is the built `<page-consent>` implementation. */
  setProvider(provider: ConsentProvider, isConsentElement: boolean): void;
  snapshot(): ConsentSnapshot | null;
  readonly api: ConsentApi;
};

export function createConsentGate(document: Document, onDiagnostic: (d: Diagnostic) => void): ConsentGate {
  let provider: ConsentProvider | null = null;
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

  /** Waits for a decision, or with `isExpiryEnough` also for an expired one (PRODUCT 3.11). */
  const snapshotOf = async <T>(read: (snapshot: ConsentSnapshot) => T, isExpiryEnough = false): Promise<T | null> => {
    const ready = await providerReady;
    if (!ready) return null;
    await new Promise<unknown>((resolve) => {
      const stop = ready.subscribe(() => ready.snapshot().expired && isExpiryEnough && resolve(stop()));
      ready.getPolicyState('default').then(resolve, resolve).finally(stop);
      if (ready.snapshot().expired && isExpiryEnough) resolve(stop());
    });
    return read(ready.snapshot());
  };

  const api: ConsentApi = {
    getPolicyState: async (policyId = 'default') => (await providerReady)?.getPolicyState(policyId) ?? null,
    // sharedData comes only with the server's answer: wait for it, not just for a decision.
    getSharedData: async () => {
      await (await providerReady)?.whenChecked();
      return snapshotOf((snapshot) => snapshot.sharedData ?? null);
    },
    getConsentString: () => snapshotOf((snapshot) => snapshot.consentString ?? null),
    getPurposeConsents: () => snapshotOf((snapshot) => snapshot.purposeConsents, true),
    getMetadata: () => snapshotOf((snapshot) => snapshot.consentMetadata ?? null),
    getReceipt: async () => (await (await providerReady)?.getReceipt?.()) ?? null,
    onChange(callback) {
      let stop = () => {};
      let isStopped = false;
      providerReady.then((ready) => {
        if (ready && !isStopped) stop = ready.subscribe(() => callback(ready.snapshot()));
      });
      return () => {
        isStopped = true;
        stop();
      };
    },
  };

  return {
    decide(request) {
      if (provider) return provider.decide(request);
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
    api,
  };
}
