/**
 * `createApp(deps)`: the whole reference server as a Fastify instance, built from its
 * dependencies and tested through `app.inject()`. Reading the environment and listening
 * belong to main.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AdsConfigDocument } from './ads-config.ts';
import { loadAdsConfigDir } from './ads-config.ts';
import type { CountryLookup } from './country.ts';
import { errorEnvelope, ErrorCode, HttpError } from './errors.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAdminPageRoutes } from './routes/admin-page.ts';
import { registerAdsConfigRoutes } from './routes/ads-config.ts';
import { registerCdnRoutes } from './routes/cdn.ts';
import { registerCmpRoutes } from './routes/cmp.ts';
import { consentBodyLimit, registerConsentRoutes } from './routes/consent.ts';
import type { AppContext } from './routes/context.ts';
import { registerExampleRoutes } from './routes/examples.ts';
import { registerHealthRoutes } from './routes/health.ts';
import type { ConsentStore } from './store/store.ts';

export type AppDeps = {
  readonly store: ConsentStore;
  /** Fastify/pino logger options; `false` (the default) for silence in tests. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Exact page origins allowed to call the consent endpoints with credentials. */
  readonly allowedOrigins: readonly string[];
  /** null disables the admin API. */
  readonly adminToken: string | null;
  /** Lowercase request header holding the requester's country (set by a trusted CDN), or null. */
  readonly trustedCountryHeader: string | null;
  /** Folder of `<client>.json` ads configs, validated here (throws ConfigError); null for none. */
  readonly adsConfigDir: string | null;
  readonly countryLookup: CountryLookup;
  /** Defaults to `dist/cdn`. */
  readonly cdnRoot?: string;
  /** Defaults to `examples`. */
  readonly examplesRoot?: string;
  /** Fastify `trustProxy`: true (trust every hop) or a comma list of load balancer addresses/CIDRs. */
  readonly trustProxy?: boolean | string;
  readonly now?: () => number;
};

function createContext(deps: AppDeps): AppContext {
  let salt: Promise<string> | null = null;
  return {
    store: deps.store,
    allowedOrigins: deps.allowedOrigins,
    adminToken: deps.adminToken || null,
    trustedCountryHeader: deps.trustedCountryHeader?.toLowerCase() || null,
    countryLookup: deps.countryLookup,
    adsConfigs: deps.adsConfigDir ? loadAdsConfigDir(deps.adsConfigDir) : new Map<string, AdsConfigDocument>(),
    cdnRoot: resolve(deps.cdnRoot ?? 'dist/cdn'),
    examplesRoot: resolve(deps.examplesRoot ?? 'examples'),
    now: deps.now ?? Date.now,
    async hashIp(ip) {
      salt ??= deps.store.ipHashSalt();
      return createHash('sha256').update(`${await salt}:${ip}`).digest('hex');
    },
  };
}

/** Maps Fastify's own errors (content type, body size, JSON syntax) onto our codes. */
export function toHttpError(
  error: { code?: string; statusCode?: number; message: string },
  bodyLimit = consentBodyLimit,
): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new HttpError(415, ErrorCode.unsupportedMediaType, 'Content-Type: expected application/json');
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new HttpError(413, ErrorCode.bodyTooLarge, `body: expected at most ${bodyLimit} bytes, got more`);
  }
  if (error.statusCode === 400) return new HttpError(400, ErrorCode.invalidJson, `body: expected valid JSON (${error.message})`);
  return null;
}

export function createApp(deps: AppDeps): FastifyInstance {
  const context = createContext(deps);
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: consentBodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
  });
  app.removeContentTypeParser('text/plain');
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
    // Requests still in flight at shutdown release their keep-alive connection so close() can finish.
    if (isClosing) reply.header('Connection', 'close');
  });
  app.setErrorHandler((error, request, reply) => {
    const known = toHttpError(error as { code?: string; statusCode?: number; message: string }, request.routeOptions.bodyLimit);
    if (known) return reply.code(known.status).send(errorEnvelope(known.code, known.message));
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorEnvelope(ErrorCode.internalError, `internal error (request ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope(ErrorCode.notFound, `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
  registerHealthRoutes(app, context);
  registerCdnRoutes(app, context);
  registerConsentRoutes(app, context);
  registerAdsConfigRoutes(app, context);
  registerCmpRoutes(app, context);
  registerAdminPageRoutes(app);
  registerAdminRoutes(app, context);
  registerExampleRoutes(app, context);
  return app;
}
