/**
 * Whether consent allows `<page-auto-ads>` to keep something in the reader's storage (the
 * vignette's cap, the experiment's arm; docs/auto-ads.md, "Vignette" and "Experiments"): no
 * `<page-consent>`, or a policy state `sufficient` or `unknown_not_required`, and TCF purpose 1
 * where TCF applies. Compiled into the parts that keep such state.
 */
import type { PageRuntime } from '../runtime/index.ts';
import { readTcfStorageConsent } from '../wire/tcf-storage.ts';

type TcfApi = (command: string, version: number, callback: (data: unknown, success: boolean) => void) => void;

/**
 * TCF purpose 1 as the page's `__tcfapi` says: true without the API (TCF does not apply), else the
 * latest answer of its listener (undefined until one comes; `onAnswer` runs after each).
 */
export function watchTcf(onAnswer?: () => void): () => boolean | undefined {
  let answer: boolean | undefined;
  let isWatching = false;
  return () => {
    const api = (window as unknown as { __tcfapi?: unknown }).__tcfapi;
    if (typeof api !== 'function') return true;
    if (!isWatching) {
      isWatching = true;
      (api as TcfApi)('addEventListener', 2, (data, success) => {
        answer = success ? readTcfStorageConsent(data) : false;
        onAnswer?.();
      });
    }
    return answer;
  };
}

/**
 * Whether consent allows storage, kept up to date and read synchronously; `onUpdate` runs after
 * each answer of the consent API (the first one included).
 */
export function watchStorageConsent(
  page: PageRuntime,
  tcf: () => boolean | undefined,
  onUpdate?: () => void,
): () => boolean {
  let isPolicyAllowing = false;
  const update = () =>
    page.consent.getPolicyState().then((state) => {
      isPolicyAllowing = state === null || state === 'sufficient' || state === 'unknown_not_required';
      onUpdate?.();
    });
  update();
  page.consent.onChange(update);
  return () => isPolicyAllowing && tcf() === true;
}
