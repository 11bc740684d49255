/**
 * The vendor API (`page.consent`, docs/consent.md "Vendor API") over the provider that
 * `<page-consent>` installs. It is the consent-api part (`v0/page-runtime-consent-api.<hash>.js`),
 * requested at the first call (src/runtime/lazy-consent-api.ts).
 */
import { settledSnapshot } from '../browser-shared/consent-macros.ts';
import type { ConsentApi, ConsentProvider, ConsentSnapshot } from './types.ts';

export function createConsentApi(whenProvider: Promise<ConsentProvider | null>): ConsentApi {
  /**
   * Waits for a decision, or with `isExpiryEnough` also for an expired one (docs/consent.md,
   * "Consent lifetime"), then for the decision's TC string while one is being built.
   */
  const snapshotOf = async <T>(read: (snapshot: ConsentSnapshot) => T, isExpiryEnough = false): Promise<T | null> => {
    const ready = await whenProvider;
    if (!ready) return null;
    await new Promise<unknown>((resolve) => {
      const stop = ready.subscribe(() => ready.snapshot().expired && isExpiryEnough && resolve(stop()));
      ready.getPolicyState('default').then(resolve, resolve).finally(stop);
      if (ready.snapshot().expired && isExpiryEnough) resolve(stop());
    });
    return read((await settledSnapshot(ready)) ?? ready.snapshot());
  };

  return {
    getPolicyState: async (policyId = 'default') => (await whenProvider)?.getPolicyState(policyId) ?? null,
    // sharedData comes only with the server's answer: wait for it, not just for a decision.
    getSharedData: async () => {
      await (await whenProvider)?.whenChecked();
      return snapshotOf((snapshot) => snapshot.sharedData ?? null);
    },
    getConsentString: () => snapshotOf((snapshot) => snapshot.consentString ?? null),
    getPurposeConsents: () => snapshotOf((snapshot) => snapshot.purposeConsents, true),
    getMetadata: () => snapshotOf((snapshot) => snapshot.consentMetadata ?? null),
    getReceipt: async () => (await (await whenProvider)?.getReceipt?.()) ?? null,
    onChange(callback) {
      let stop = () => {};
      let isStopped = false;
      whenProvider.then((ready) => {
        if (ready && !isStopped) stop = ready.subscribe(() => callback(ready.snapshot()));
      });
      return () => {
        isStopped = true;
        stop();
      };
    },
  };
}
