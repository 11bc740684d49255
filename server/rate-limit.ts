/**
 * Per-client rate limits (`@fastify/rate-limit`) for the endpoints anyone can call in bulk:
 * `/consent/*`, `/cmp/outcome` and `/ads/experiment`. The limited routes are declared inside one encapsulated
 * plugin that registers the rate limit for all its routes (`global: true`), so a client IP has
 * one budget shared by all of them (docs/server.md), not one per route; every route declared outside
 * is not limited. The key is the client IP (`request.ip`, so TRUST_PROXY decides whether
 * `X-Forwarded-For` counts); an exceeded limit is a 429 `rate-limited` in the error envelope with
 * `Retry-After`, after the route's own CORS hook has run.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, HttpError } from './errors.ts';

export const rateLimitWindowMs = 60_000;

/** Client IPs counted per window, at most; beyond it the least recent ones are forgotten. */
const rateLimitCache = 100_000;

/**
 * Declares the routes of `declare` in a plugin of their own where every request from one client
 * IP counts against the same `perMinute` budget, whichever route it goes to. 0 disables the limit.
 */
export function registerRateLimitedRoutes(
  app: FastifyInstance,
  perMinute: number,
  declare: (limited: FastifyInstance) => void,
): void {
  app.register(async (limited) => {
    if (perMinute > 0) {
      // Awaited, so its onRoute hook is in place before the routes are declared.
      await limited.register(rateLimit, {
        global: true,
        max: perMinute,
        timeWindow: rateLimitWindowMs,
        // CORS preflights cost a lookup and no storage; counting them would halve a reader's budget.
        allowList: (request) => request.method === 'OPTIONS',
        cache: rateLimitCache,
        errorResponseBuilder: (_request, context) =>
          new HttpError(
            429,
            ErrorCode.rateLimited,
            `too many requests from this client: at most ${context.max} per minute; retry in ${context.after}`,
          ),
      });
    }
    declare(limited);
  });
}
