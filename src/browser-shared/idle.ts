/** Idle periods (docs/decisions/consent-return-record.md): the work a return visit puts off. */
export const IDLE_TIMEOUT_MS = 1000;

/**
 * Resolves in the first idle period after the page's load event (at the latest IDLE_TIMEOUT_MS
 * after it; without `requestIdleCallback`, a task after it), so that what it starts neither
 * competes with the page's own loading nor delays its load event.
 */
export const whenIdle = () =>
  new Promise<void>((resolve) => {
    const idle = () =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS })
        : setTimeout(resolve);
    if (document.readyState === 'complete') idle();
    else addEventListener('load', idle, { once: true });
  });
