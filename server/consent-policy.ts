/**
 * Pure policy decisions behind `POST /consent/check`: which geo group applies, whether
 * consent is required there, and what the answer says about the user's stored decision.
 */
import { own } from '../src/wire/values.ts';
import { matchGroups } from '../src/wire/geo-groups.ts';
import type { DecisionRecord, InstanceConfig, InstanceRecord } from './store/store.ts';
import type { CheckAnswer } from './api-types.ts';
import type { Place } from './country.ts';

export const defaultGroup = 'default';

/**
 * The page's `matchedGeoGroup` wins; without one, the reader's place (country and subdivision, as
 * the server found them) is grouped as `<page-geo>` groups it, under the instance's
 * `subdivisionUnknown`, and the first matching group in config order answers.
 */
export function resolveGeoGroup(
  config: InstanceConfig,
  matchedGeoGroup: string | null,
  place: Pick<Place, 'country' | 'subdivision'>,
): string {
  if (matchedGeoGroup !== null) return matchedGeoGroup;
  return matchGroups(config.geoGroups, place.country, place.subdivision, config.subdivisionUnknown)[0] ?? defaultGroup;
}

/**
 * A group without an entry falls back to `default`; without that either, consent is required.
 * Groups are own keys only: `constructor` or `__proto__` from a request is just a name.
 */
export function isConsentRequired(config: InstanceConfig, group: string): boolean {
  const required = own(config.consentRequired, group) ?? own(config.consentRequired, defaultGroup);
  return typeof required === 'boolean' ? required : true;
}

function decisionFields(decision: DecisionRecord | null, policyVersion: number): CheckAnswer {
  if (!decision) return { consentStateValue: null, consentString: null, expireCache: false };
  if (decision.policyVersion < policyVersion) {
    return { consentStateValue: 'unknown', consentString: null, expireCache: true };
  }
  return {
    consentStateValue: decision.state,
    consentString: decision.consentString,
    expireCache: false,
    // Under the legacy singular name too (`purposeConsent`); clients read either.
    ...(decision.purposeConsents
      ? { purposeConsents: decision.purposeConsents, purposeConsent: decision.purposeConsents }
      : {}),
    ...(decision.consentMetadata ? { consentMetadata: decision.consentMetadata } : {}),
    ...(decision.tcfPolicyVersion === null ? {} : { tcfPolicyVersion: decision.tcfPolicyVersion }),
  };
}

export function buildCheckAnswer(
  instance: InstanceRecord,
  group: string,
  decision: DecisionRecord | null,
): CheckAnswer {
  const { config } = instance;
  return {
    consentRequired: isConsentRequired(config, group),
    ...decisionFields(decision, instance.policyVersion),
    ...(config.sharedData ? { sharedData: config.sharedData } : {}),
    ...(config.purposeConsentRequired ? { purposeConsentRequired: config.purposeConsentRequired } : {}),
  };
}
