/** Idle periods (docs/decisions/consent-return-record.md): the work a return visit puts off. */
export const IDLE_TIMEOUT_MS = 1000;

/** Resolves in the browser's first idle period, at the latest after IDLE_TIMEOUT_MS (without `requestIdleCallback`, after a task). */
export const whenIdle = () =>
  new Promise<void>((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS }) : setTimeout(resolve)));
