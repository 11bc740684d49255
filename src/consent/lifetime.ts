/**
 * Consent lifetime (docs/consent.md, "Consent lifetime"): whether a stored decision is older than its state allows, and
 * the reducer's `start` event for a config and its cached decision (shared by the controller and
 * the return-visit fast path).
 */
import type { StoredConsent } from '../wire/consent.ts';
import type { ConsentConfig, ConsentCoreConfig } from '../wire/consent-config.ts';
import type { ConsentLifetime } from '../wire/consent-lifetime.ts';
import type { StartEvent } from './state.ts';

const DAY_MS = 86_400_000;

export const isExpired = ({ state, time }: StoredConsent, lifetime: ConsentLifetime, now: number): boolean =>
  now - time > lifetime[state] * DAY_MS;

/** The `start` event with nothing cached (a first visit's; the timing plays no part). Pure. */
export const freshStartEventOf = (config: ConsentCoreConfig, hasGpc = false): StartEvent => ({
  type: 'start',
  stored: null,
  consentRequired: config.consentRequired,
  requiredPurposes: config.purposeConsentRequired,
  isGpcReject: hasGpc && config.gpc === 'reject',
});

/** The `start` event: an expired decision is no decision (its purposes are kept as the prompt's start). Pure. */
export function startEventOf(
  config: ConsentConfig,
  cached: StoredConsent | null,
  now: number,
  hasGpc = false,
): StartEvent {
  const expired = cached && isExpired(cached, config.consentLifetime, now) ? cached : null;
  return {
    ...freshStartEventOf(config, hasGpc),
    stored: expired ? null : cached,
    expiredPurposes: expired ? (expired.purposeConsents ?? {}) : undefined,
  };
}
