/**
 * What an instance with `tcf` settings asks the reader for, from the GVL: the purposes its
 * vendors declare (for consent, for legitimate interest), the special purposes and features
 * they use, and the selected special features the vendors declare. The second layer shows
 * exactly this; "Accept all" and "Reject all" follow the shared decision rules
 * (`choicesOfDecision`). Pure.
 */
import { listedVendors, type TcfChoices, type TcfSettings } from '../tcf/tc-choices.ts';
import type { GvlJson, GvlVendor } from '../wire/gvl.ts';

export type TcfScope = {
  readonly vendors: readonly GvlVendor[];
  readonly purposes: readonly number[];
  readonly legIntPurposes: readonly number[];
  readonly specialPurposes: readonly number[];
  readonly features: readonly number[];
  readonly specialFeatures: readonly number[];
};

const union = (lists: readonly (readonly number[])[]) => [...new Set(lists.flat())].sort((a, b) => a - b);

export function scopeOf(gvl: GvlJson, settings: TcfSettings): TcfScope {
  const vendors = listedVendors(gvl, settings);
  const declared = new Set(union(vendors.map((v) => v.specialFeatures)));
  return {
    vendors,
    purposes: union(vendors.flatMap((v) => [v.purposes, v.flexiblePurposes])),
    legIntPurposes: union(vendors.map((v) => v.legIntPurposes)),
    specialPurposes: union(vendors.map((v) => v.specialPurposes)),
    features: union(vendors.map((v) => v.features)),
    specialFeatures: (settings.specialFeatures ?? []).filter((id) => declared.has(id)),
  };
}

/**
 * The page's purposes from the TCF choices: a config purpose is consented when every TCF
 * purpose mapped to it is (and it maps at least one).
 */
export function purposeConsentsOf(
  choices: TcfChoices,
  mapping: Readonly<Record<string, readonly number[]>>,
): Record<string, boolean> {
  const consented = new Set(choices.purposeConsents);
  return Object.fromEntries(
    Object.entries(mapping).map(([name, ids]) => [name, ids.length > 0 && ids.every((id) => consented.has(id))]),
  );
}

/** Whether the reader consented to anything, the publisher's own purposes included (the response's `accept` or `reject`). */
export const isAnyConsent = (choices: TcfChoices): boolean =>
  choices.purposeConsents.length +
    choices.vendorConsents.length +
    choices.specialFeatureOptins.length +
    (choices.publisher?.customConsents.length ?? 0) >
  0;
