/**
 * `consentLifetimeDays` (docs/consent.md, "Consent lifetime"): how long a stored decision lasts, a number of days for
 * both states or `{"accepted": n, "rejected": n}`. Absent or wrong: 390 days (a wrong value is
 * also named in a diagnostic).
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';
import { isRecord } from './values.ts';

export type ConsentLifetime = { readonly accepted: number; readonly rejected: number };

export const DEFAULT_LIFETIME_DAYS = 390;

const isDays = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

export function parseConsentLifetime(json: unknown, diagnostics: Diagnostic[]): ConsentLifetime {
  const both = json ?? DEFAULT_LIFETIME_DAYS;
  const {
    accepted = DEFAULT_LIFETIME_DAYS,
    rejected = DEFAULT_LIFETIME_DAYS,
    ...others
  } = isRecord(both) ? both : { accepted: both, rejected: both };
  if (isDays(accepted) && isDays(rejected) && !Object.keys(others).length) return { accepted, rejected };
  diagnostics.push(
    diagnostic(
      'consent-lifetime-invalid',
      'a positive number of days, or {accepted, rejected} days',
      json,
      'consentLifetimeDays',
    ),
  );
  return { accepted: DEFAULT_LIFETIME_DAYS, rejected: DEFAULT_LIFETIME_DAYS };
}
