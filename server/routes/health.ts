/**
 * `GET /healthz`: 200 when the store answers within `healthPingTimeoutMs`, 503
 * `store-unavailable` otherwise (a failure or no answer in time), and 503 `shutting-down`
 * during the drain after SIGTERM (for load balancers).
 */
import type { FastifyInstance } from 'fastify';
import { ErrorCode, HttpError } from '../errors.ts';
import type { ConsentStore } from '../store/store.ts';
import type { AppContext } from './context.ts';

/** Longest wait for the store's answer; below the usual health-check time-outs of load balancers (5 s). */
export const healthPingTimeoutMs = 2000;

/** Resolves when the store answers, rejects when it fails or gives no answer within `timeoutMs`. */
async function pingWithin(store: ConsentStore, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new HttpError(
            503,
            ErrorCode.storeUnavailable,
            `the ${store.kind} store does not answer within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    // The race handles a ping that fails after the time-out: no unhandled rejection.
    await Promise.race([store.ping(), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/healthz', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (context.isDraining()) {
      throw new HttpError(
        503,
        ErrorCode.shuttingDown,
        'the server is draining before it shuts down: take it out of rotation',
      );
    }
    try {
      await pingWithin(context.store, context.healthTimeoutMs);
    } catch (error) {
      request.log.error({ err: error }, 'store ping failed');
      if (error instanceof HttpError) throw error;
      throw new HttpError(503, ErrorCode.storeUnavailable, `the ${context.store.kind} store does not answer`);
    }
    return reply.send({ status: 'ok', store: context.store.kind });
  });
}
