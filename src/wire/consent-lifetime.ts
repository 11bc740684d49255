/**
 * `consentLifetimeDays` (PRODUCT 3.11): how long a stored decision lasts, a number of days for
 * both states or `{"accepted": n, "rejected": n}`. Absent or wrong: 390 days (a wrong value is
 * also named in a diagnostic).
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';
import { isRecord } from './values.ts';

export type ConsentLifetime = { readonly accepted: number; readonly rejected: number };

export const DEFAULT_LIFETIME_DAYS = 390;

const EXPECTED = 'consentLifetimeDays: days from 1 to 3650, or {"accepted": days, "rejected": days}';

const isDays = (value: unknown): value is number => typeof value === 'number' && value >= 1 && value <= 3650;

export function parseConsentLifetime(json: unknown, diagnostics: Diagnostic[]): ConsentLifetime {
  const fallback = { accepted: DEFAULT_LIFETIME_DAYS, rejected: DEFAULT_LIFETIME_DAYS };
  if (json === undefined || json === null) return fallback;
  if (isDays(json)) return { accepted: json, rejected: json };
  const { accepted = DEFAULT_LIFETIME_DAYS, rejected = DEFAULT_LIFETIME_DAYS, ...others } = isRecord(json) ? json : { json };
  if (isDays(accepted) && isDays(rejected) && !Object.keys(others).length) return { accepted, rejected };
  diagnostics.push(diagnostic('consent-lifetime-invalid', EXPECTED, json, 'consentLifetimeDays'));
  return fallback;
}
