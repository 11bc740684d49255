/**
 * Server configuration from an environment map (main.ts passes process.env; nothing else
 * reads it). Every variable, its default and its meaning is listed in docs/server.md.
 */
import { createPrivateKey } from 'node:crypto';
import { parseAllowedOrigins } from './cors.ts';
import { ConfigError } from './errors.ts';
import { type GeoHeaderSource, readGeoHeaderSources, readHeaderName } from './geo-headers.ts';
import { broadestPublicPrefix, findBroadTrust, parseRange } from './trust-proxy-ranges.ts';

export type ServerConfig = {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  readonly allowedOrigins: readonly string[];
  readonly adminToken: string | null;
  /** TRUSTED_COUNTRY_HEADER: the custom pair's country header (lowercase), or null. */
  readonly trustedCountryHeader: string | null;
  /** TRUSTED_REGION_HEADER: the custom pair's region header (lowercase), or null. */
  readonly trustedRegionHeader: string | null;
  /** GEO_HEADERS: the sources of the reader's country and region, first first (geo-headers.ts). */
  readonly geoHeaders: readonly GeoHeaderSource[];
  readonly adsConfigDir: string;
  readonly cdnRoot: string;
  readonly examplesRoot: string;
  /** TRUST_PROXY: false, a hop count, or a comma list of proxy addresses/CIDRs; never `true`. */
  readonly trustProxy: TrustProxy;
  readonly logLevel: string;
  /** Requests per client IP per minute on /consent/*, /cmp/outcome and /ads/experiment; 0 disables the limit. */
  readonly rateLimitPerMinute: number;
  /** Instances created on first use, at most. */
  readonly maxAutoInstances: number;
  /** COMMIT_WINDOW_MS: how long the first update of a group commit waits for others (0: only those arriving during the previous commit). */
  readonly commitWindowMs: number;
  /** INSTANCE_CACHE_MS: longest use of a cached instance policy without reading the database again; 0 disables the cache. */
  readonly instanceCacheMs: number;
  /** How long /healthz answers 503 after SIGTERM before the server closes. */
  readonly shutdownDrainMs: number;
  /** REQUEST_TIMEOUT_MS: longest time to receive a request's headers and body (slow clients are cut off); 0: no limit. */
  readonly requestTimeoutMs: number;
  /** Start-up warnings (`code: text`) that main.ts logs; the server still starts. */
  readonly warnings: readonly string[];
  /** RECEIPT_SIGNING_KEY: an Ed25519 private key, PKCS#8 PEM (`\n` escapes allowed); null: generated and kept in the store. */
  readonly receiptSigningKey: string | null;
  /** TCF_VENDOR_LIST: the operator's copy of the IAB Global Vendor List v3 served at /tcf/vendor-list.json; null: 404. */
  readonly tcfVendorList: string | null;
  /** TCF_TRANSLATIONS_DIR: the IAB's translation files served at /tcf/purposes-<lang>.json; null: English only. */
  readonly tcfTranslationsDir: string | null;
  /** GOOGLE_ATP_LIST: Google's ATP list (its CSV) for Additional Consent, served at /tcf/google-atps.json; null: 404. */
  readonly googleAtpList: string | null;
};

/** Fastify's `trustProxy` restricted to what cannot let a client choose its own address. */
export type TrustProxy = false | number | string;

type Env = Readonly<Record<string, string | undefined>>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError('port-invalid', `PORT: expected an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

type CountRule = { readonly name: string; readonly code: string; readonly fallback: number; readonly max: number };

/** A non-negative integer variable; empty or absent takes the fallback. */
function readCount(value: string | undefined, rule: CountRule): number {
  if (value === undefined || value.trim() === '') return rule.fallback;
  const count = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(count) || count > rule.max) {
    throw new ConfigError(rule.code, `${rule.name}: expected an integer from 0 to ${rule.max}, got "${value}"`);
  }
  return count;
}

function readReceiptSigningKey(value: string | undefined): string | null {
  if (!value) return null;
  const pem = value.replaceAll('\\n', '\n');
  try {
    if (createPrivateKey(pem).asymmetricKeyType === 'ed25519') return pem;
  } catch {}
  throw new ConfigError(
    'receipt-signing-key-invalid',
    'RECEIPT_SIGNING_KEY: expected an Ed25519 private key in PKCS#8 PEM, got something else',
  );
}

/**
 * TRUST_PROXY: `true` would take the left-most `X-Forwarded-For` entry, which any client
 * writes, so it is refused, and so is a list of ranges broad enough to act like it
 * (trust-proxy-ranges.ts); a hop count trusts that many proxies in front of the server, a
 * list trusts those addresses only.
 */
function readTrustProxy(value: string | undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (/^\d{1,2}$/.test(text)) return Number(text) === 0 ? false : Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  if (!entries.every((entry) => /^(loopback|linklocal|uniquelocal)$/.test(entry) || parseRange(entry) !== null)) {
    throw new ConfigError(
      'trust-proxy-invalid',
      `TRUST_PROXY: expected a hop count or a comma list of proxy addresses/CIDRs, got "${text}"` +
        (text === 'true' ? ' (true would let any client choose its address)' : ''),
    );
  }
  const broadTrust = findBroadTrust(entries);
  if (broadTrust === null) return entries.join(',');
  const { IPv4, IPv6 } = broadestPublicPrefix;
  throw new ConfigError(
    'trust-proxy-too-broad',
    `TRUST_PROXY: expected public ranges adding up to at most an IPv4 /${IPv4} and an IPv6 /${IPv6}, got ${broadTrust} in "${text}" (any client in them could choose its address)`,
  );
}

export function parseServerConfig(env: Env): ServerConfig {
  const port = readPort(env['PORT']);
  const logLevel = env['LOG_LEVEL'] || 'info';
  if (!logLevels.includes(logLevel)) {
    throw new ConfigError('log-level-invalid', `LOG_LEVEL: expected one of ${logLevels.join(', ')}, got "${logLevel}"`);
  }
  const adminToken = env['ADMIN_TOKEN'] || null;
  const warnings: string[] = [];
  if (adminToken !== null && adminToken.length < 16) {
    warnings.push('admin-token-weak: ADMIN_TOKEN: expected at least 16 characters; the admin API is enabled anyway');
  }
  const trustedCountryHeader = readHeaderName(env['TRUSTED_COUNTRY_HEADER'], 'TRUSTED_COUNTRY_HEADER');
  const trustedRegionHeader = readHeaderName(env['TRUSTED_REGION_HEADER'], 'TRUSTED_REGION_HEADER');
  if (trustedRegionHeader !== null && trustedCountryHeader === null) {
    throw new ConfigError(
      'geo-headers-invalid',
      `TRUSTED_REGION_HEADER: expected TRUSTED_COUNTRY_HEADER beside it, got "${env['TRUSTED_REGION_HEADER']}" alone`,
    );
  }
  const geoHeaders = readGeoHeaderSources(env['GEO_HEADERS'], trustedCountryHeader);
  const trustProxy = readTrustProxy(env['TRUST_PROXY']);
  if (geoHeaders.length > 0 && trustProxy === false) {
    warnings.push(
      `geo-headers-untrusted: GEO_HEADERS: expected TRUST_PROXY naming the proxy that sets them, got none; the headers (${geoHeaders.join(', ')}) are ignored and the IP database is used`,
    );
  }
  if (trustedCountryHeader !== null && !geoHeaders.includes('custom')) {
    warnings.push(
      'geo-headers-unused: TRUSTED_COUNTRY_HEADER: expected custom in GEO_HEADERS, got none; the custom pair is not read',
    );
  }
  return {
    port,
    host: env['HOST'] || 'localhost',
    databaseUrl: env['DATABASE_URL'] || undefined,
    allowedOrigins: parseAllowedOrigins(env['ALLOWED_ORIGINS'] ?? `http://localhost:${port},http://127.0.0.1:${port}`),
    adminToken,
    trustedCountryHeader,
    trustedRegionHeader,
    geoHeaders,
    adsConfigDir: env['ADS_CONFIG_DIR'] || './ads-config',
    cdnRoot: env['CDN_ROOT'] || './dist/cdn',
    examplesRoot: env['EXAMPLES_ROOT'] || './examples',
    trustProxy,
    logLevel,
    rateLimitPerMinute: readCount(env['RATE_LIMIT_PER_MINUTE'], {
      name: 'RATE_LIMIT_PER_MINUTE',
      code: 'rate-limit-invalid',
      fallback: 600,
      max: 1_000_000,
    }),
    maxAutoInstances: readCount(env['MAX_AUTO_INSTANCES'], {
      name: 'MAX_AUTO_INSTANCES',
      code: 'max-auto-instances-invalid',
      fallback: 1000,
      max: 10_000_000,
    }),
    commitWindowMs: readCount(env['COMMIT_WINDOW_MS'], {
      name: 'COMMIT_WINDOW_MS',
      code: 'commit-window-invalid',
      fallback: 0,
      max: 1000,
    }),
    instanceCacheMs: readCount(env['INSTANCE_CACHE_MS'], {
      name: 'INSTANCE_CACHE_MS',
      code: 'instance-cache-invalid',
      fallback: 1000,
      max: 60_000,
    }),
    shutdownDrainMs: readCount(env['SHUTDOWN_DRAIN_MS'], {
      name: 'SHUTDOWN_DRAIN_MS',
      code: 'shutdown-drain-invalid',
      fallback: 5000,
      max: 600_000,
    }),
    requestTimeoutMs: readCount(env['REQUEST_TIMEOUT_MS'], {
      name: 'REQUEST_TIMEOUT_MS',
      code: 'request-timeout-invalid',
      fallback: 10_000,
      max: 600_000,
    }),
    warnings,
    receiptSigningKey: readReceiptSigningKey(env['RECEIPT_SIGNING_KEY']),
    tcfVendorList: env['TCF_VENDOR_LIST'] || null,
    tcfTranslationsDir: env['TCF_TRANSLATIONS_DIR'] || null,
    googleAtpList: env['GOOGLE_ATP_LIST'] || null,
  };
}
