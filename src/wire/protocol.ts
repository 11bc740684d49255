/**
 * Wire types shared by the client components and the reference server (types only).
 * Field names follow docs/consent.md ("Remote check", "Update notification") and docs/auto-ads.md ("Config format").
 */

import type { ConsentMetadata, ConsentStateValue, PurposeConsents, SharedData } from './consent.ts';

/** POST body sent to `checkConsentHref`. */
export type ConsentCheckRequest = {
  readonly consentInstanceId: string;
  readonly consentStateValue: ConsentStateValue;
  readonly consentString?: string;
  readonly matchedGeoGroup: string | null;
  readonly purposeConsents?: PurposeConsents;
  readonly isDirty: boolean;
  /** The browser sends Global Privacy Control and the config applies it (docs/consent.md, "Signals for ad tech"). */
  readonly gpc?: boolean;
};

/** JSON answer of `checkConsentHref` (after any `xssiPrefix` is stripped). */
export type ConsentCheckResponse = {
  readonly consentRequired?: boolean;
  readonly consentStateValue?: ConsentStateValue | null;
  readonly consentString?: string | null;
  readonly expireCache?: boolean;
  readonly sharedData?: SharedData;
  readonly purposeConsents?: PurposeConsents;
  readonly consentMetadata?: ConsentMetadata;
  readonly tcfPolicyVersion?: number;
};

/** POST body sent to `onUpdateHref`. */
export type ConsentUpdateRequest = {
  readonly consentInstanceId: string;
  readonly pageUserId: string;
  readonly consentStateValue: ConsentStateValue;
  readonly consentString?: string;
  readonly purposeConsents?: PurposeConsents;
  readonly consentMetadata?: ConsentMetadata;
  readonly tcfPolicyVersion?: number /** The browser sent Global Privacy Control (docs/consent.md, "Global Privacy Control"); the server keeps it with the audit record. */;
  readonly gpc?: boolean;
};

/** Auto-ads configuration (ConfigObj), wire names as docs/auto-ads.md documents them. */
export type AnchorWire = {
  readonly selector: string;
  readonly index?: number;
  readonly all?: boolean;
  readonly min_c?: number;
  readonly sub?: AnchorWire;
};

export type PlacementWire = {
  readonly anchor: AnchorWire;
  readonly pos: 1 | 2 | 3 | 4;
  readonly type: 1;
  readonly style?: { readonly top_m?: number; readonly bot_m?: number };
  readonly attributes?: Readonly<Record<string, string>>;
};

/** docs/auto-ads.md, "Vignette". */
export type VignetteWire = {
  readonly type: 'vignette';
  readonly intervalSeconds?: number;
  readonly tabReturnSeconds?: number;
  readonly articleEnd?: boolean;
  readonly timeoutMs?: number;
  readonly attributes?: Readonly<Record<string, string>>;
};

/** docs/auto-ads.md, "Side rails". */
export type SideRailWire = {
  readonly type: 'sideRail';
  readonly sides?: 'left' | 'right' | 'both';
  readonly width?: 160 | 300;
  readonly attributes?: Readonly<Record<string, string>>;
};

export type AdConstraintsWire = {
  readonly initialMinSpacing: string;
  readonly subsequentMinSpacing?: readonly { readonly adCount: number; readonly spacing: string }[];
  readonly maxAdCount: number;
};

export type AutoAdsConfigWire = {
  readonly placements: readonly (PlacementWire | VignetteWire | SideRailWire)[];
  readonly attributes?: Readonly<Record<string, string>>;
  readonly adConstraints?: AdConstraintsWire;
  readonly optInStatus?: readonly number[];
  readonly stickyAdAttributes?: Readonly<Record<string, string>>;
  readonly noConfigReason?: string;
};
