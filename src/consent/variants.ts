/**
 * A `<page-consent>` config's geo variants and what its cached decision allows under each, for
 * the two readers that decide before the element: the return-visit fast path (fast-path.ts) and
 * the return record's writer (return-record.ts). The rules come in as functions (`ConsentRules`):
 * the fast path bundles its own copies, the writer is handed the consent core's and the state
 * part's (it is in the state part).
 */
import type { startEventOf } from './lifetime.ts';
import type { decide, PolicyInput } from './policy.ts';
import type { ConsentModel, reduceConsent } from './state.ts';
import { decisionKeyOf } from './controller.ts';
import type { StoredConsent } from '../wire/consent.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import { isRecord } from '../wire/values.ts';

/** The consent rules a variant is decided with. */
export type ConsentRules = {
  /** The element's config under the geo groups `geoGroups`, with its timing; null when invalid. */
  readonly parseConfig: (geoGroups: string[]) => ConsentConfig | null;
  /** The cached decision of a site-store value at `now`, or null. */
  readonly parseStored: (value: unknown, now: number) => StoredConsent | null;
  readonly reduceConsent: typeof reduceConsent;
  readonly initialModel: ConsentModel;
  readonly startEventOf: typeof startEventOf;
  readonly decide: typeof decide;
};

/** The config of one geo variant, its cached decision and the policy input they make. */
export type Variant = {
  readonly config: ConsentConfig;
  readonly cached: StoredConsent | null;
  readonly input: PolicyInput;
};

/**
 * The cached decision under the base config of `json` and each of its `geoOverride` groups; none
 * when any config is invalid or has Consent Mode. `stored` reads a site-store value.
 */
export function variantsOf(
  json: unknown,
  now: number,
  hasGpc: boolean,
  stored: (name: string) => unknown,
  rules: ConsentRules,
): Variant[] {
  const groups = isRecord(json) && isRecord(json.geoOverride) ? Object.keys(json.geoOverride) : [];
  const variants: Variant[] = [];
  for (const geoGroups of [[], ...groups.map((group) => [group])]) {
    const config = rules.parseConfig(geoGroups);
    // Consent Mode's default must reach gtag before any script (docs/consent.md, "Signals for ad tech"); the element sends it.
    if (!config || config.consentModeMapping !== undefined) return [];
    const cached = rules.parseStored(stored(decisionKeyOf(config.consentInstanceId)), now);
    const model = rules.reduceConsent(rules.initialModel, rules.startEventOf(config, cached, now, hasGpc));
    // A prompt is assumed: an undecided state then waits, as it may for the components.
    variants.push({
      config,
      cached,
      input: {
        state: model.state,
        purposeConsents: model.purposeConsents,
        fallbackAction: config.fallbackAction,
        hasPrompt: true,
      },
    });
  }
  return variants;
}
