/**
 * Pure policy decisions behind `POST /consent/check`: which geo group applies, whether
 * consent is required there, and what the answer says about the user's stored decision.
 */
import { own } from '../src/wire/values.ts';
import { matchGroups } from '../src/wire/geo-groups.ts';
import type { DecisionRecord, InstanceConfig, InstanceRecord } from './store/store.ts';
import type { CheckAnswer } from './api-types.ts';

export const defaultGroup = 'default';

/**
 * The page's `matchedGeoGroup` wins; without one, the server's place (country, and the
 * subdivision its geo headers gave, else `unknown`) is grouped as `<page-geo>` groups it, a
 * reader of unknown state in every group of their country's states (`<page-geo>`'s default,
 * `strictest`), and the first matching group in config order answers.
 */
export function resolveGeoGroup(
  config: InstanceConfig,
  matchedGeoGroup: string | null,
  country: string,
  subdivision = 'unknown',
): string {
  if (matchedGeoGroup !== null) return matchedGeoGroup;
  return matchGroups(config.geoGroups, country, subdivision)[0] ?? defaultGroup;
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
