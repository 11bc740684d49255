/**
 * Server-side wire types that src/wire/protocol.ts does not hold: extra response fields,
 * the hosted prompt's configuration and the admin API shapes (types only).
 */
import type { ConsentCheckResponse } from '../src/wire/protocol.ts';
import type { ConsentStateValue, PurposeConsents } from '../src/wire/consent.ts';

/** `checkConsentHref` answer as this server sends it. */
export type CheckAnswer = ConsentCheckResponse & {
  /** The legacy singular name (docs/consent.md, "Remote check") for `purposeConsents`: the same map, sent under both. */
  readonly purposeConsent?: PurposeConsents;
  /** Purposes the page must ask about; AMP-compatible clients read it when their config has none. */
  readonly purposeConsentRequired?: readonly string[];
};

/** `onUpdateHref` acknowledgement, sent only once the record is durable. */
export type UpdateAnswer = { readonly recorded: true; readonly policyVersion: number; readonly receiptId: string };

/** Outcomes the hosted prompt reports for the dashboard (aggregate counters only). */
export type PromptAction = 'accept' | 'reject' | 'dismiss';

export type DailyDecisions = {
  readonly day: string;
  readonly accepted: number;
  readonly rejected: number;
  readonly unknown: number;
};

/** The audit log's decisions of one geo group (null: rows logged before the group was kept), by kind (decision-kinds.ts). */
export type GroupDecisions = {
  readonly group: string | null;
  readonly accepted: number;
  readonly custom: number;
  readonly rejected: number;
  readonly optOut: number;
  readonly unknown: number;
};

export type DailyPromptOutcomes = {
  readonly day: string;
  readonly accept: number;
  readonly reject: number;
  readonly dismiss: number;
};

/** One arm's totals over every page view it reported (docs/server.md, "Ads experiments"). */
export type ExperimentArmTotals = {
  readonly experiment: string;
  readonly arm: string;
  readonly pageViews: number;
  readonly adsPlaced: number;
  readonly viewable: number;
  /** The sum of each page view's viewable impressions squared, for the variance. */
  readonly viewableSquares: number;
  /** The sum of each page view's layout shift. */
  readonly layoutShift: number;
};

export type PurposeAcceptance = { readonly purpose: string; readonly accepted: number; readonly rejected: number };

export type InstanceCounts = {
  readonly users: number;
  readonly auditEntries: number;
  readonly decisions: Readonly<Record<ConsentStateValue, number>>;
};
