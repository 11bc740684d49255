/**
 * What the server adds in development (NODE_ENV other than `production`) so that `npm start`
 * runs every example page with no setting (docs/server.md, "Development defaults"):
 * - TCF_VENDOR_LIST unset: the bundled fixture `fixtures/tcf/vendor-list.json` (made-up vendors),
 *   labelled as a fixture in the start-up log and in the `/tcf/vendor-list.json` response;
 * - GOOGLE_ATP_LIST unset: the bundled fixture `fixtures/tcf/google-atps.csv` (made-up ATPs),
 *   labelled the same way in the log and in the `/tcf/google-atps.json` response;
 * - ADMIN_TOKEN unset and the server on loopback only: a token generated for this run, printed
 *   with the admin URL;
 * - the example pages' instances configured at start, unless an admin configured them already.
 * In production none of this happens: no vendor list and no admin without their settings.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { type GvlJson, parseGvl } from '../src/wire/gvl.ts';
import { hostOf, isLoopbackHost } from '../src/wire/url.ts';
import type { ServerConfig } from './config.ts';
import { checkTcfAgainstGvl } from './instance-tcf.ts';
import { parseInstanceConfig } from './instance-config.ts';
import type { ConsentStore, InstanceConfig } from './store/store.ts';
import { defaultInstanceConfig } from './store/store.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** The bundled vendor list: a small GVL v3 with made-up vendors, for tests and examples only. */
export const FIXTURE_VENDOR_LIST = 'fixtures/tcf/vendor-list.json';

/** The value of the `X-Vendor-List` header on `/tcf/vendor-list.json` when the fixture is served. */
export const FIXTURE_VENDOR_LIST_HEADER = `fixture (${FIXTURE_VENDOR_LIST}, made-up vendors, development only): set TCF_VENDOR_LIST to the IAB's list`;

/** The bundled ATP list: Google's CSV format with made-up ATPs, for tests and examples only. */
export const FIXTURE_ATP_LIST = 'fixtures/tcf/google-atps.csv';

/** The value of the `X-Google-Atp-List` header on `/tcf/google-atps.json` when the fixture is served. */
export const FIXTURE_ATP_LIST_HEADER = `fixture (${FIXTURE_ATP_LIST}, made-up ATPs, development only): set GOOGLE_ATP_LIST to Google's list`;

export type Development = {
  readonly config: ServerConfig;
  /** False under NODE_ENV=production: the config is returned unchanged. */
  readonly isDevelopment: boolean;
  /** The vendor list is the bundled fixture, not the operator's copy. */
  readonly fixtureVendorList: boolean;
  /** The ATP list is the bundled fixture, not the operator's copy of Google's. */
  readonly fixtureAtpList: boolean;
  /** The admin token was generated for this run (print it). */
  readonly generatedAdminToken: boolean;
};

export function developmentDefaults(
  config: ServerConfig,
  env: Env,
  fixturePath = FIXTURE_VENDOR_LIST,
  atpFixturePath = FIXTURE_ATP_LIST,
): Development {
  const isDevelopment = env['NODE_ENV'] !== 'production';
  if (!isDevelopment)
    return { config, isDevelopment, fixtureVendorList: false, fixtureAtpList: false, generatedAdminToken: false };
  const fixtureVendorList = config.tcfVendorList === null && existsSync(fixturePath);
  const fixtureAtpList = config.googleAtpList === null && existsSync(atpFixturePath);
  const generatedAdminToken = config.adminToken === null && isLoopbackHost(hostOf(config.host));
  return {
    config: {
      ...config,
      tcfVendorList: fixtureVendorList ? fixturePath : config.tcfVendorList,
      googleAtpList: fixtureAtpList ? atpFixturePath : config.googleAtpList,
      adminToken: generatedAdminToken ? randomBytes(24).toString('base64url') : config.adminToken,
    },
    isDevelopment,
    fixtureVendorList,
    fixtureAtpList,
    generatedAdminToken,
  };
}

/**
 * The instances the example pages name, as their pages describe them: `examples-hosted-cmp`
 * (hosted-cmp.html) with TCF settings on the fixture's vendors and every ATP of the ATP list, `examples-cmp` (cmp-iframe.html)
 * with its own purposes, described, and partners. The texts are English.
 */
export const exampleInstances: Readonly<Record<string, unknown>> = {
  'examples-hosted-cmp': {
    purposeConsentRequired: ['ads', 'measurement'],
    tcf: {
      cmpId: 300,
      cmpVersion: 1,
      vendors: [1, 2, 8, 25, 52],
      purposes: { ads: [1, 2, 3, 4], measurement: [1, 7, 8, 9] },
      specialFeatures: [1],
      publisherCountryCode: 'DE',
      // Every ATP of GOOGLE_ATP_LIST (in development the fixture's four): "Other partners" in the second layer.
      googleAtps: 'all',
    },
  },
  'examples-cmp': {
    purposeConsentRequired: ['measurement', 'ads'],
    prompt: {
      title: 'Your privacy choices',
      message:
        'We and our partners store and read information on your device, such as cookies, for the purposes below.',
      purposes: [
        {
          id: 'measurement',
          label: 'Audience measurement',
          description: 'Counting visits and how pages are read, to improve the site. No ads are chosen from it.',
        },
        {
          id: 'ads',
          label: 'Personalised ads',
          description: 'Ads chosen from what you read on this site and on others, and measuring how they perform.',
        },
      ],
      vendors: [
        { name: 'Sample Analytics', purposes: ['measurement'] },
        { name: 'Example Exchange', purposes: ['ads'] },
        { name: 'Demo Bidder', purposes: ['ads'] },
      ],
    },
  },
};

const isUntouched = (config: InstanceConfig) => JSON.stringify(config) === JSON.stringify(defaultInstanceConfig);

/**
 * Configures each example instance that is missing or still as created on first use (an admin's
 * config is kept). One with TCF settings needs a vendor list holding its ids; without one it is
 * skipped. Returns what was done, one line per instance, for the log.
 */
export async function configureExampleInstances(
  store: ConsentStore,
  now: number,
  vendorListPath: string | null,
): Promise<string[]> {
  let gvl: GvlJson | null = null;
  try {
    gvl = vendorListPath ? parseGvl(JSON.parse(readFileSync(vendorListPath, 'utf8'))).value : null;
  } catch {}
  const done: string[] = [];
  for (const [id, example] of Object.entries(exampleInstances)) {
    const current = await store.getInstance(id);
    if (current && !isUntouched(current.config)) {
      done.push(`${id}: kept its config`);
      continue;
    }
    const config = parseInstanceConfig(example);
    if (config.tcf) {
      try {
        if (!gvl) throw new Error('no vendor list (TCF_VENDOR_LIST)');
        checkTcfAgainstGvl(config.tcf, gvl);
      } catch (error) {
        done.push(`${id}: not configured: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
    }
    await store.putInstance(id, config, now);
    done.push(`${id}: configured`);
  }
  return done;
}
