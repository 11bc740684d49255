/**
 * `npm start`: reads the environment (the only file that does), opens the store, builds the
 * app, listens, and shuts down gracefully: SIGTERM drains first (/healthz answers 503 for
 * SHUTDOWN_DRAIN_MS while the other routes keep serving), SIGINT does not; then in-flight
 * requests finish, the store is closed (SQLite checkpoints its WAL) and the process exits.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from './app.ts';
import { parseServerConfig } from './config.ts';
import { createGeoipLookup } from './country.ts';
import {
  configureExampleInstances,
  developmentDefaults,
  FIXTURE_ATP_LIST,
  FIXTURE_VENDOR_LIST,
} from './development.ts';
import { createShutdown } from './shutdown.ts';
import { openStore } from './store/open-store.ts';

const closeTimeoutMs = 10_000;

function displayUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

async function main(): Promise<void> {
  // In development (NODE_ENV not production): the fixture vendor list, a loopback admin token, the example instances.
  const development = developmentDefaults(parseServerConfig(process.env), process.env);
  const { config } = development;
  const store = await openStore(config.databaseUrl, {
    commitWindowMs: config.commitWindowMs,
    instanceCacheMs: config.instanceCacheMs,
  });
  const shutdown = createShutdown(() => app, { closeTimeoutMs, exit: (code) => process.exit(code) });
  const app = createApp({
    store,
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    allowedOrigins: config.allowedOrigins,
    adminToken: config.adminToken,
    trustedCountryHeader: config.trustedCountryHeader,
    trustedRegionHeader: config.trustedRegionHeader,
    geoHeaders: config.geoHeaders,
    adsConfigDir: config.adsConfigDir,
    countryLookup: await createGeoipLookup(),
    cdnRoot: config.cdnRoot,
    examplesRoot: config.examplesRoot,
    trustProxy: config.trustProxy,
    rateLimitPerMinute: config.rateLimitPerMinute,
    maxAutoInstances: config.maxAutoInstances,
    receiptSigningKey: config.receiptSigningKey,
    isDraining: shutdown.isDraining,
    requestTimeoutMs: config.requestTimeoutMs,
    tcfVendorList: config.tcfVendorList,
    tcfTranslationsDir: config.tcfTranslationsDir,
    tcfVendorListIsFixture: development.fixtureVendorList,
    googleAtpList: config.googleAtpList,
    googleAtpListIsFixture: development.fixtureAtpList,
  });
  app.addHook('onClose', async () => store.close());
  for (const warning of config.warnings) app.log.warn(warning);
  if (!config.adminToken) {
    const why = development.isDevelopment ? ' (npm start generates one only when HOST is a loopback address)' : '';
    app.log.warn(`admin API disabled: set ADMIN_TOKEN (16+ characters) to enable /admin/${why}`);
  }
  if (development.fixtureVendorList) {
    app.log.warn(
      `TCF vendor list: ${FIXTURE_VENDOR_LIST}, a FIXTURE with made-up vendors (development only): set TCF_VENDOR_LIST to the IAB's list`,
    );
  }
  if (development.fixtureAtpList) {
    app.log.warn(
      `Google ATP list: ${FIXTURE_ATP_LIST}, a FIXTURE with made-up ATPs (development only): set GOOGLE_ATP_LIST to Google's list`,
    );
  }
  if (development.isDevelopment) {
    for (const line of await configureExampleInstances(store, Date.now(), config.tcfVendorList))
      app.log.info(`example instance ${line}`);
  }
  if (!existsSync(join(config.cdnRoot, 'v0.js'))) {
    app.log.warn(`${config.cdnRoot}/v0.js is missing: CDN routes answer 404 cdn-not-built until npm run build`);
  }

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const url = displayUrl(config.host, typeof address === 'object' && address ? address.port : config.port);
  app.log.info({ url, store: store.kind, allowedOrigins: config.allowedOrigins }, `page server listening on ${url}`);
  if (development.generatedAdminToken) {
    // The token rides in the fragment, which the browser never sends; the page reads it once.
    const adminUrl = `${url}/admin/#token=${config.adminToken}`;
    app.log.info(
      { adminUrl },
      `admin dashboard: ${adminUrl} (token generated for this run, development only; set ADMIN_TOKEN to choose one)`,
    );
  }

  process.on('SIGTERM', () => shutdown.begin('SIGTERM', config.shutdownDrainMs));
  process.on('SIGINT', () => shutdown.begin('SIGINT', 0));
}

main().catch((error: unknown) => {
  console.error(`page server did not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
