/**
 * `createApp(deps)`: the whole reference server as a Fastify instance, built from its
 * dependencies and tested through `app.inject()`. Reading the environment and listening
 * belong to main.ts.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AdsConfigDocument } from './ads-config.ts';
import { loadAdsConfigDir } from './ads-config.ts';
import type { TrustProxy } from './config.ts';
import type { CountryLookup } from './country.ts';
import { type GeoHeaderSource, geoHeaderPairs } from './geo-headers.ts';
import { isTrustedAddress } from './trust-proxy-ranges.ts';
import { errorEnvelope, ErrorCode, HttpError } from './errors.ts';
import { handleClientError, sendFrameworkError, toHttpError } from './framework-errors.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { registerRateLimitedRoutes } from './rate-limit.ts';
import { lazyChildLogger } from './request-logger.ts';
import { createReceiptSigner } from './receipts.ts';
import { createRequestId } from './request-id.ts';
import { registerAdminRoutes } from './routes/admin.ts';
import { registerAdminPageRoutes } from './routes/admin-page.ts';
import { registerAdsConfigRoutes } from './routes/ads-config.ts';
import { registerExperimentRoutes } from './routes/ads-experiment.ts';
import { registerCdnRoutes } from './routes/cdn.ts';
import { registerOutcomeRoutes, registerPromptRoutes } from './routes/cmp.ts';
import { consentBodyLimit, registerConsentRoutes } from './routes/consent.ts';
import type { AppContext } from './routes/context.ts';
import { registerExampleRoutes } from './routes/examples.ts';
import { healthPingTimeoutMs, registerHealthRoutes } from './routes/health.ts';
import { registerReceiptKeyRoutes, registerReceiptRoutes } from './routes/receipt.ts';
import { registerTcfRoutes } from './routes/tcf.ts';
import { registerTcfTranslationRoutes } from './routes/tcf-translations.ts';
import type { ConsentStore } from './store/store.ts';

export type AppDeps = {
  readonly store: ConsentStore;
  /** Fastify/pino logger options; `false` (the default) for silence in tests. */
  readonly logger?: FastifyServerOptions['logger'];
  /** Exact page origins allowed to call the consent endpoints with credentials. */
  readonly allowedOrigins: readonly string[];
  /** null disables the admin API. */
  readonly adminToken: string | null;
  /** The custom pair's country header (TRUSTED_COUNTRY_HEADER), or null. */
  readonly trustedCountryHeader: string | null;
  /** The custom pair's region header (TRUSTED_REGION_HEADER), or null. */
  readonly trustedRegionHeader?: string | null;
  /** GEO_HEADERS: the sources read, first first; absent: `custom` when `trustedCountryHeader` is set. Read only from a peer `trustProxy` trusts. */
  readonly geoHeaders?: readonly GeoHeaderSource[];
  /** Folder of `<client>.json` ads configs, validated here (throws ConfigError); null for none. */
  readonly adsConfigDir: string | null;
  readonly countryLookup: CountryLookup;
  /** Defaults to `dist/cdn`. */
  readonly cdnRoot?: string;
  /** Defaults to `examples`. */
  readonly examplesRoot?: string;
  /** Fastify `trustProxy`: a hop count or a comma list of proxy addresses/CIDRs; never `true` (see config.ts). */
  readonly trustProxy?: TrustProxy;
  readonly now?: () => number;
  /** Requests per client IP per minute on /consent/*, /cmp/outcome and /ads/experiment; 0 disables. Default 600. */
  readonly rateLimitPerMinute?: number;
  /** Instances created on first use, at most. Default 1,000. */
  readonly maxAutoInstances?: number;
  /** True while the process drains before shutting down: /healthz answers 503. */
  readonly isDraining?: () => boolean;
  /** Ed25519 private key (PKCS#8 PEM) that signs consent receipts; null: a key generated once and kept in the store. */
  readonly receiptSigningKey?: string | null;
  /** Longest time to receive a request's headers and body once its connection is open; 0: no limit. Default 10,000. */
  readonly requestTimeoutMs?: number;
  /** Longest wait of /healthz for the store's ping before it answers 503. Default `healthPingTimeoutMs` (2,000). */
  readonly healthTimeoutMs?: number;
  /** The IAB Global Vendor List v3 file served at /tcf/vendor-list.json; null or absent: 404 naming TCF_VENDOR_LIST. */
  readonly tcfVendorList?: string | null;
  /** Folder of the IAB's translation files (`purposes-<lang>.json`), or null. */
  readonly tcfTranslationsDir?: string | null;
  /** `tcfVendorList` is the bundled fixture (development default): its response says so. */
  readonly tcfVendorListIsFixture?: boolean;
  /** Google's ATP list (CSV) served as JSON at /tcf/google-atps.json; null or absent: 404 naming GOOGLE_ATP_LIST. */
  readonly googleAtpList?: string | null;
  /** `googleAtpList` is the bundled fixture (development default): its response says so. */
  readonly googleAtpListIsFixture?: boolean;
};

/** How often Node checks the request time-out: a slow client is cut off within the time-out plus this. */
export const REQUEST_TIMEOUT_CHECK_MS = 1000;

/** Client IP hashes kept per process (the salt never changes); cleared when this many are kept. */
const ipHashCacheSize = 10_000;

function createContext(deps: AppDeps): AppContext {
  let salt: Promise<string> | null = null;
  const ipHashes = new Map<string, string>();
  return {
    store: deps.store,
    allowedOrigins: deps.allowedOrigins,
    adminToken: deps.adminToken || null,
    geoHeaders: geoHeadersOf(deps),
    isTrustedPeer: trustedPeerFunction(deps.trustProxy ?? false),
    countryLookup: deps.countryLookup,
    adsConfigs: deps.adsConfigDir ? loadAdsConfigDir(deps.adsConfigDir) : new Map<string, AdsConfigDocument>(),
    cdnRoot: resolve(deps.cdnRoot ?? 'dist/cdn'),
    examplesRoot: resolve(deps.examplesRoot ?? 'examples'),
    tcfVendorList: deps.tcfVendorList ? resolve(deps.tcfVendorList) : null,
    tcfTranslationsDir: deps.tcfTranslationsDir ? resolve(deps.tcfTranslationsDir) : null,
    tcfVendorListIsFixture: deps.tcfVendorListIsFixture ?? false,
    googleAtpList: deps.googleAtpList ? resolve(deps.googleAtpList) : null,
    googleAtpListIsFixture: deps.googleAtpListIsFixture ?? false,
    now: deps.now ?? Date.now,
    rateLimitPerMinute: deps.rateLimitPerMinute ?? 600,
    healthTimeoutMs: deps.healthTimeoutMs ?? healthPingTimeoutMs,
    maxAutoInstances: deps.maxAutoInstances ?? 1000,
    isDraining: deps.isDraining ?? (() => false),
    receipts: createReceiptSigner(deps.store, deps.receiptSigningKey ?? null, deps.now ?? Date.now),
    async hashIp(ip) {
      const known = ipHashes.get(ip);
      if (known) return known;
      salt ??= deps.store.ipHashSalt();
      const hash = createHash('sha256')
        .update(`${await salt}:${ip}`)
        .digest('hex');
      if (ipHashes.size >= ipHashCacheSize) ipHashes.clear();
      ipHashes.set(ip, hash);
      return hash;
    },
  };
}

function geoHeadersOf(deps: AppDeps) {
  const country = deps.trustedCountryHeader?.toLowerCase() || null;
  const sources = deps.geoHeaders ?? (country === null ? [] : ['custom' as const]);
  return geoHeaderPairs(sources, { country, region: deps.trustedRegionHeader?.toLowerCase() || null });
}

/** Whether a peer address is a proxy TRUST_PROXY trusts: with a hop count, every peer is (the nearest proxy); with a list, the listed ones. */
function trustedPeerFunction(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => true;
  const entries = trust.split(',').map((entry) => entry.trim());
  return (address) => isTrustedAddress(entries, address);
}

/**
 * Fastify's `trustProxy` for ours: Fastify trusts no hop when given a number, so a hop count
 * becomes a function trusting that many addresses nearest to the server.
 */
function trustFunction(trust: TrustProxy): string | boolean | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export function createApp(deps: AppDeps): FastifyInstance {
  const context = createContext(deps);
  const requestTimeout = deps.requestTimeoutMs ?? 10_000;
  const app = Fastify({
    // Slow clients (slowloris): headers and body must arrive within the time-out, checked every second.
    requestTimeout,
    http:
      requestTimeout > 0
        ? { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: REQUEST_TIMEOUT_CHECK_MS }
        : {},
    logger: deps.logger ?? false,
    childLoggerFactory: lazyChildLogger,
    trustProxy: trustFunction(deps.trustProxy ?? false),
    bodyLimit: consentBodyLimit,
    genReqId: createRequestId,
    // Requests arriving while the app closes get our own 503 `shutting-down` (below), not Fastify's.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: handleClientError,
  });
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  // The hooks every request runs are callback-style: no promise per request.
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!isClosing) return done();
    done(
      new HttpError(
        503,
        ErrorCode.shuttingDown,
        'the server is shutting down: retry on another instance',
      ) as unknown as FastifyError,
    );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
    // While draining or closing, each response releases its keep-alive connection so close() cuts none.
    if (isClosing || context.isDraining()) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.setErrorHandler((error, request, reply) => {
    const known = toHttpError(
      error as { code?: string; statusCode?: number; message: string },
      request.routeOptions.bodyLimit,
      request.headers['content-type'],
    );
    if (known) return reply.code(known.status).send(errorEnvelope(known.code, known.message));
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorEnvelope(ErrorCode.internalError, `internal error (request ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope(ErrorCode.notFound, `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
  app.register(async (routes) => {
    registerHealthRoutes(routes, context);
    registerCdnRoutes(routes, context);
    // One budget per client IP shared by these routes (/consent/*, /cmp/outcome, /ads/experiment); the others are not limited.
    registerRateLimitedRoutes(routes, context.rateLimitPerMinute, (limited) => {
      registerConsentRoutes(limited, context);
      registerReceiptRoutes(limited, context);
      registerOutcomeRoutes(limited, context);
      registerExperimentRoutes(limited, context);
    });
    registerReceiptKeyRoutes(routes, context);
    registerAdsConfigRoutes(routes, context);
    registerPromptRoutes(routes, context);
    registerTcfRoutes(routes, context);
    registerTcfTranslationRoutes(routes, context);
    registerAdminPageRoutes(routes, context);
    registerAdminRoutes(routes, context);
    registerExampleRoutes(routes, context);
  });
  return app;
}
