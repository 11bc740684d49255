/**
 * Per-client rate limits (`@fastify/rate-limit`) for the endpoints anyone can call in bulk:
 * `/consent/*` and `/cmp/outcome`. Routes opt in with `config: { rateLimit: context.rateLimit }`;
 * every other route is not limited. The key is the client IP (`request.ip`, so TRUST_PROXY
 * decides whether `X-Forwarded-For` counts); an exceeded limit is a 429 `rate-limited` in the
 * error envelope with `Retry-After`.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, HttpError } from './errors.ts';

export const rateLimitWindowMs = 60_000;

/** What a limited route puts in `config.rateLimit`: the per-minute budget, or false when disabled. */
export type RouteRateLimit = { readonly max: number; readonly timeWindow: number } | false;

/** `perMinute` 0 disables the limit. */
export function createRouteRateLimit(perMinute: number): RouteRateLimit {
  return perMinute > 0 ? { max: perMinute, timeWindow: rateLimitWindowMs } : false;
}

/** Registers the plugin; the routes that opt in must be declared in a later plugin. */
export function registerRateLimit(app: FastifyInstance): void {
  app.register(rateLimit, {
    global: false,
    // Clients above this many distinct IPs per window evict the least recent ones.
    cache: 100_000,
    errorResponseBuilder: (_request, context) =>
      new HttpError(
        429,
        ErrorCode.rateLimited,
        `too many requests from this client: at most ${context.max} per minute; retry in ${context.after}`,
      ),
  });
}
