/** What every route module receives: the app's dependencies with defaults applied. */
import type { AdsConfigDocument } from '../ads-config.ts';
import type { CountryLookup } from '../country.ts';
import type { GeoHeaderPair } from '../geo-headers.ts';
import type { ReceiptSigner } from '../receipts.ts';
import type { ConsentStore } from '../store/store.ts';

export type AppContext = {
  readonly store: ConsentStore;
  readonly allowedOrigins: readonly string[];
  readonly adminToken: string | null;
  /** The CDN header pairs giving the reader's country and region, first first (GEO_HEADERS). */
  readonly geoHeaders: readonly GeoHeaderPair[];
  /** Whether a peer's socket address is a proxy TRUST_PROXY trusts: only then are `geoHeaders` read. */
  readonly isTrustedPeer: (address: string) => boolean;
  readonly countryLookup: CountryLookup;
  readonly adsConfigs: ReadonlyMap<string, AdsConfigDocument>;
  readonly cdnRoot: string;
  readonly examplesRoot: string;
  /** Absolute path of the GVL copy (TCF_VENDOR_LIST), or null. */
  readonly tcfVendorList: string | null;
  /** The GVL copy is the bundled fixture (development default, server/development.ts). */
  readonly tcfVendorListIsFixture: boolean;
  /** Absolute path of the IAB translations folder (TCF_TRANSLATIONS_DIR), or null. */
  readonly tcfTranslationsDir: string | null;
  /** Absolute path of Google's ATP list, a CSV (GOOGLE_ATP_LIST), or null. */
  readonly googleAtpList: string | null;
  /** The ATP list is the bundled fixture (development default, server/development.ts). */
  readonly googleAtpListIsFixture: boolean;
  readonly now: () => number;
  /** Requests per client IP per minute, shared by /consent/*, /cmp/outcome and /ads/experiment; 0: no limit. */
  readonly rateLimitPerMinute: number;
  /** Longest wait of /healthz for the store's answer (ms). */
  readonly healthTimeoutMs: number;
  /** Instances created on first use, at most (MAX_AUTO_INSTANCES). */
  readonly maxAutoInstances: number;
  /** True during the drain after SIGTERM. */
  readonly isDraining: () => boolean;
  /** Signs consent receipts (docs/server.md, "Proving consent"). */
  readonly receipts: ReceiptSigner;
  /** Salted SHA-256 of a client IP (salt kept in the store), hex. */
  hashIp(ip: string): Promise<string>;
};
