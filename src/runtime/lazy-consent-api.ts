/**
 * `page.consent` as the runtime core ships it: each method requests the consent-api part
 * (src/runtime/consent-api.ts) at its first call and then forwards to it. Without the part
 * (one diagnostic) every answer is null and no change is reported, as on a page whose consent
 * never loaded.
 */
import type { ConsentApi } from './types.ts';

const CALLS = [
  'getPolicyState',
  'getSharedData',
  'getConsentString',
  'getPurposeConsents',
  'getMetadata',
  'getReceipt',
] as const;

export function createLazyConsentApi(load: () => Promise<ConsentApi | undefined>): ConsentApi {
  const api = Object.fromEntries(
    CALLS.map((name) => [
      name,
      async (...args: unknown[]) =>
        ((await load())?.[name] as ((...a: unknown[]) => Promise<unknown>) | undefined)?.(...args) ?? null,
    ]),
  ) as Omit<ConsentApi, 'onChange'>;
  return {
    ...api,
    onChange(callback) {
      let stop: (() => void) | undefined;
      let isStopped = false;
      load().then((ready) => {
        if (ready && !isStopped) stop = ready.onChange(callback);
      });
      return () => {
        isStopped = true;
        stop?.();
      };
    },
  };
}
