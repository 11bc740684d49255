/**
 * `GET /healthz`: 200 when the store answers, 503 `store-unavailable` otherwise, and 503
 * `shutting-down` during the drain after SIGTERM (for load balancers).
 */
import type { FastifyInstance } from 'fastify';
import { ErrorCode, HttpError } from '../errors.ts';
import type { AppContext } from './context.ts';

export function registerHealthRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/healthz', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (context.isDraining()) {
      throw new HttpError(503, ErrorCode.shuttingDown, 'the server is draining before it shuts down: take it out of rotation');
    }
    try {
      await context.store.ping();
    } catch (error) {
      request.log.error({ err: error }, 'store ping failed');
      throw new HttpError(503, ErrorCode.storeUnavailable, `the ${context.store.kind} store does not answer`);
    }
    return reply.send({ status: 'ok', store: context.store.kind });
  });
}
