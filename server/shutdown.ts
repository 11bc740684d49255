/**
 * Graceful shutdown. SIGTERM starts a drain: `/healthz` answers 503 `shutting-down` so the load
 * balancer stops sending traffic, while every other route keeps serving (responses then say
 * `Connection: close`, so keep-alive connections end cleanly after a complete response instead
 * of being cut at close). After the drain, the app closes: in-flight requests finish and the
 * store is closed. SIGINT, or a second signal, skips what is left of the drain.
 */
import type { FastifyInstance } from 'fastify';

export type Shutdown = {
  /** True from the first signal on. */
  isDraining(): boolean;
  /** Starts the drain (`drainMs`), then closes the app and calls `exit` with 0, or 1 on failure. */
  begin(signal: string, drainMs: number): void;
};

export type ShutdownOptions = {
  /** Longest wait for in-flight requests once the app closes. */
  readonly closeTimeoutMs: number;
  readonly exit: (code: number) => void;
};

export function createShutdown(getApp: () => FastifyInstance, options: ShutdownOptions): Shutdown {
  let draining = false;
  let closing = false;
  let drainTimer: NodeJS.Timeout | null = null;

  const close = () => {
    if (closing) return;
    closing = true;
    if (drainTimer) clearTimeout(drainTimer);
    const app = getApp();
    app.log.info('drain over: closing after the requests in flight');
    setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      options.exit(1);
    }, options.closeTimeoutMs).unref();
    app.close().then(
      () => {
        app.log.info('closed');
        options.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        options.exit(1);
      },
    );
  };

  return {
    isDraining: () => draining,
    begin(signal, drainMs) {
      if (draining) return close();
      draining = true;
      getApp().log.info(
        { signal, drainMs },
        `shutting down: /healthz answers 503 for ${drainMs} ms, other routes keep serving`,
      );
      if (drainMs <= 0) return close();
      drainTimer = setTimeout(close, drainMs);
    },
  };
}
