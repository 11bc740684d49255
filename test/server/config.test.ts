import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../server/config.ts';

describe('config', () => {
  it('has localhost-friendly defaults', () => {
    expect(parseServerConfig({})).toEqual({
      port: 8080,
      host: 'localhost',
      databaseUrl: undefined,
      allowedOrigins: ['http://localhost:8080', 'http://127.0.0.1:8080'],
      adminToken: null,
      trustedCountryHeader: null,
      trustedRegionHeader: null,
      geoHeaders: [],
      adsConfigDir: './ads-config',
      cdnRoot: './dist/cdn',
      examplesRoot: './examples',
      trustProxy: false,
      logLevel: 'info',
      rateLimitPerMinute: 600,
      maxAutoInstances: 1000,
      commitWindowMs: 0,
      instanceCacheMs: 1000,
      shutdownDrainMs: 5000,
      tcfVendorList: null,
      tcfTranslationsDir: null,
      googleAtpList: null,
      requestTimeoutMs: 10_000,
      warnings: [],
      receiptSigningKey: null,
    });
  });

  it('reads RECEIPT_SIGNING_KEY as an Ed25519 PKCS#8 PEM, with \\n escapes', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(parseServerConfig({ RECEIPT_SIGNING_KEY: pem }).receiptSigningKey).toBe(pem);
    expect(parseServerConfig({ RECEIPT_SIGNING_KEY: pem.replaceAll('\n', '\\n') }).receiptSigningKey).toBe(pem);
  });

  it.each([
    ['not a key'],
    [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()],
  ])('refuses a RECEIPT_SIGNING_KEY that is not an Ed25519 private key', (value) => {
    expect(() => parseServerConfig({ RECEIPT_SIGNING_KEY: value })).toThrow(/^receipt-signing-key-invalid: /);
  });

  it('derives the default allowed origins from PORT', () => {
    expect(parseServerConfig({ PORT: '3000' }).allowedOrigins).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
    ]);
  });

  it('reads every variable', () => {
    const config = parseServerConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://db/page',
      ALLOWED_ORIGINS: 'https://a.example,https://b.example',
      ADMIN_TOKEN: 'a-long-enough-token',
      TRUSTED_COUNTRY_HEADER: 'CF-IPCountry',
      TRUSTED_REGION_HEADER: 'CF-Region-Code',
      GEO_HEADERS: 'vercel, custom',
      ADS_CONFIG_DIR: '/etc/ads',
      TRUST_PROXY: '10.0.0.0/8',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_AUTO_INSTANCES: '25',
      SHUTDOWN_DRAIN_MS: '1500',
      COMMIT_WINDOW_MS: '2',
      INSTANCE_CACHE_MS: '0',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      databaseUrl: 'postgres://db/page',
      allowedOrigins: ['https://a.example', 'https://b.example'],
      adminToken: 'a-long-enough-token',
      trustedCountryHeader: 'cf-ipcountry',
      trustedRegionHeader: 'cf-region-code',
      geoHeaders: ['vercel', 'custom'],
      adsConfigDir: '/etc/ads',
      trustProxy: '10.0.0.0/8',
      logLevel: 'warn',
      rateLimitPerMinute: 0,
      maxAutoInstances: 25,
      commitWindowMs: 2,
      instanceCacheMs: 0,
      shutdownDrainMs: 1500,
    });
    expect(parseServerConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseServerConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(parseServerConfig({ TRUST_PROXY: '10.0.0.1, 127.0.0.1,loopback' }).trustProxy).toBe(
      '10.0.0.1,127.0.0.1,loopback',
    );
  });

  it('refuses TRUST_PROXY=true, which would let any client choose its address', () => {
    expect(() => parseServerConfig({ TRUST_PROXY: 'true' })).toThrow(
      'trust-proxy-invalid: TRUST_PROXY: expected a hop count or a comma list of proxy addresses/CIDRs, got "true" (true would let any client choose its address)',
    );
    expect(() => parseServerConfig({ TRUST_PROXY: 'yes' })).toThrow(/^trust-proxy-invalid: /);
  });

  it.each([
    ['0.0.0.0/1,128.0.0.0/1', 'public IPv4 ranges adding up to a /0'],
    ['::/1,8000::/1', 'public IPv4 ranges adding up to a /0'],
    ['::ffff:0.0.0.0/96', 'public IPv4 ranges adding up to a /0'],
    ['11.0.0.0/8,12.0.0.0/8', 'public IPv4 ranges adding up to a /7'],
    ['10.0.0.0/7', 'public IPv4 ranges adding up to a /7'],
    ['2000::/3', 'public IPv6 ranges adding up to a /3'],
  ])('refuses TRUST_PROXY=%s, broad enough to let nearly any client choose its address', (list, got) => {
    expect(() => parseServerConfig({ TRUST_PROXY: list })).toThrow(
      `trust-proxy-too-broad: TRUST_PROXY: expected public ranges adding up to at most an IPv4 /8 and an IPv6 /16, got ${got} in "${list}" (any client in them could choose its address)`,
    );
  });

  it.each([
    ['10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10,127.0.0.0/8,::1,fc00::/7,fe80::/10,::ffff:192.168.0.0/112'],
    [
      '173.245.48.0/20,103.21.244.0/22,104.16.0.0/13,104.24.0.0/14,172.64.0.0/13,162.158.0.0/15,2400:cb00::/32,2606:4700::/32,2a06:98c0::/29',
    ],
    ['11.0.0.0/8,2001::/16'],
  ])(
    'accepts TRUST_PROXY=%s: private ranges, and public ones adding up to an IPv4 /8 and an IPv6 /16 at most',
    (list) => {
      expect(parseServerConfig({ TRUST_PROXY: list }).trustProxy).toBe(list);
    },
  );

  it.each([['1.2.3'], ['10.0.0.0/33'], ['::/129'], ['10.0.0.0/8/8'], ['fe80::1%eth0']])(
    'refuses TRUST_PROXY=%s, not an address or CIDR',
    (list) => {
      expect(() => parseServerConfig({ TRUST_PROXY: list })).toThrow(/^trust-proxy-invalid: /);
    },
  );

  it('accepts a short ADMIN_TOKEN with a start-up warning', () => {
    const config = parseServerConfig({ ADMIN_TOKEN: 'secret' });
    expect(config.adminToken).toBe('secret');
    expect(config.warnings).toEqual([
      'admin-token-weak: ADMIN_TOKEN: expected at least 16 characters; the admin API is enabled anyway',
    ]);
    expect(parseServerConfig({ ADMIN_TOKEN: 'a-long-enough-token' }).warnings).toEqual([]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'port-invalid: PORT: expected an integer from 0 to 65535, got "eighty"'],
    [{ PORT: '70000' }, 'port-invalid'],
    [{ LOG_LEVEL: 'loud' }, 'log-level-invalid'],
    [{ ALLOWED_ORIGINS: '*' }, 'allowed-origin-invalid'],
    [
      { RATE_LIMIT_PER_MINUTE: '-1' },
      'rate-limit-invalid: RATE_LIMIT_PER_MINUTE: expected an integer from 0 to 1000000, got "-1"',
    ],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, 'rate-limit-invalid'],
    [
      { MAX_AUTO_INSTANCES: '1.5' },
      'max-auto-instances-invalid: MAX_AUTO_INSTANCES: expected an integer from 0 to 10000000',
    ],
    [
      { SHUTDOWN_DRAIN_MS: '5s' },
      'shutdown-drain-invalid: SHUTDOWN_DRAIN_MS: expected an integer from 0 to 600000, got "5s"',
    ],
    [
      { COMMIT_WINDOW_MS: '1001' },
      'commit-window-invalid: COMMIT_WINDOW_MS: expected an integer from 0 to 1000, got "1001"',
    ],
    [{ COMMIT_WINDOW_MS: '0.5' }, 'commit-window-invalid'],
    [
      { INSTANCE_CACHE_MS: '-5' },
      'instance-cache-invalid: INSTANCE_CACHE_MS: expected an integer from 0 to 60000, got "-5"',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => parseServerConfig(env)).toThrow(message);
  });
});
