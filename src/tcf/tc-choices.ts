/**
 * Which TCF purposes, vendors and special features a decision from one of our prompts consents
 * to (docs/consent.md, "TC strings from our own prompts"). Accept: every purpose consented and
 * its legitimate interest established, every listed vendor consented and its legitimate interest
 * established where the GVL declares one, the listed special features opted in. Reject: nothing,
 * and an objection to every legitimate interest. Purpose-level choices: the TCF purposes mapped
 * to a config purpose follow it, the others the global state; a vendor is consented when every
 * consent purpose it declares is, and its legitimate interest stands when every purpose it
 * declares one for does. A vendor's declarations are those its publisher restrictions leave
 * (src/tcf/restrictions.ts). With `publisherPurposes`, the publisher's own purposes follow the
 * same purposes (consent: consented; legitimate interest: not objected to), and its custom
 * purposes the global state. Pure: no library, no DOM.
 */
import type { GvlJson, GvlVendor } from '../wire/gvl.ts';
import type { PublisherPurposes, PublisherRestriction } from '../wire/publisher-tcf.ts';
import { restrictedVendor } from './restrictions.ts';

/** A prompt's decision in TCF terms; the LI arrays list legitimate interests established (not objected to). */
export type TcfChoices = {
  purposeConsents: number[];
  purposeLegitimateInterests: number[];
  vendorConsents: number[];
  vendorLegitimateInterests: number[];
  specialFeatureOptins: number[];
  /** The publisher TC segment; present when the settings have `publisherPurposes` (or a decoded string carries one). */
  publisher?: PublisherChoices;
};

/** The publisher TC segment: its TCF purposes consented / LI established, its custom purposes likewise. */
export type PublisherChoices = {
  consents: number[];
  legitimateInterests: number[];
  customConsents: number[];
  customLegitimateInterests: number[];
};

/** The config's `tcf` object plus the CMP ids. */
export type TcfSettings = {
  cmpId: number;
  cmpVersion: number;
  vendors: number[];
  purposes?: Record<string, number[]>;
  specialFeatures?: number[];
  publisherCountryCode?: string;
  /** The reader's language as the IAB lists it (`DE`, `NO`, `PT-PT`); English when it lists no such language. */
  consentLanguage?: string;
  publisherRestrictions?: readonly PublisherRestriction[];
  publisherPurposes?: PublisherPurposes;
};

export type TcfDecision = { state: 'accepted' | 'rejected'; purposeConsents?: Readonly<Record<string, boolean>> };

const idsOf = (section: Readonly<Record<string, { readonly id: number }>>): number[] =>
  Object.values(section).map((entry) => entry.id);

/**
 * The GVL's vendors among `settings.vendors`, in the publisher's order, without deleted ones,
 * each with the declarations its publisher restrictions leave.
 */
export function listedVendors(
  gvl: GvlJson,
  settings: Pick<TcfSettings, 'vendors' | 'publisherRestrictions'>,
): GvlVendor[] {
  const vendors = settings.vendors.map((id) =>
    Object.hasOwn(gvl.vendors, String(id)) ? gvl.vendors[String(id)] : undefined,
  );
  return vendors
    .filter((vendor): vendor is GvlVendor => vendor !== undefined && !vendor.deletedDate)
    .map((vendor) => restrictedVendor(vendor, settings.publisherRestrictions));
}

/** The publisher segment of a decision: its purposes follow `isChosen`, its custom purposes `isAccepted`. */
export function publisherChoicesOf(
  purposes: PublisherPurposes,
  isChosen: (id: number) => boolean,
  isAccepted: boolean,
): PublisherChoices {
  const custom = (basis: 'consent' | 'legitimateInterest') =>
    isAccepted ? (purposes.custom ?? []).filter((p) => p.legalBasis === basis).map((p) => p.id) : [];
  return {
    consents: (purposes.consent ?? []).filter(isChosen),
    legitimateInterests: (purposes.legitimateInterest ?? []).filter(isChosen),
    customConsents: custom('consent'),
    customLegitimateInterests: custom('legitimateInterest'),
  };
}

/** Whether TCF purpose `id` is chosen: by the config purposes mapped to it (all of them), else by the global state. */
function purposeChooser(settings: TcfSettings, decision: TcfDecision): (id: number) => boolean {
  const isAccepted = decision.state === 'accepted';
  const choices = decision.purposeConsents ?? {};
  const mapping = Object.entries(settings.purposes ?? {}).filter(([name]) => Object.hasOwn(choices, name));
  return (id) => {
    const mapped = mapping.filter(([, tcfIds]) => tcfIds.includes(id));
    return mapped.length ? mapped.every(([name]) => choices[name] === true) : isAccepted;
  };
}

export function choicesOfDecision(gvl: GvlJson, settings: TcfSettings, decision: TcfDecision): TcfChoices {
  const isChosen = purposeChooser(settings, decision);
  const purposeConsents = idsOf(gvl.purposes).filter(isChosen);
  const purposeLegitimateInterests = [...purposeConsents];
  const vendors = listedVendors(gvl, settings);
  const isAccepted = decision.state === 'accepted';
  const hasInterest = (vendor: GvlVendor) =>
    vendor.legIntPurposes.length
      ? vendor.legIntPurposes.every(isChosen)
      : vendor.specialPurposes.length > 0 && isAccepted;
  return {
    purposeConsents,
    purposeLegitimateInterests,
    vendorConsents: vendors
      .filter((vendor) => vendor.purposes.length > 0 && vendor.purposes.every(isChosen))
      .map((vendor) => vendor.id),
    vendorLegitimateInterests: vendors.filter(hasInterest).map((vendor) => vendor.id),
    specialFeatureOptins: isAccepted
      ? (settings.specialFeatures ?? []).filter((id) => Object.hasOwn(gvl.specialFeatures, String(id)))
      : [],
    ...(settings.publisherPurposes
      ? { publisher: publisherChoicesOf(settings.publisherPurposes, isChosen, isAccepted) }
      : {}),
  };
}
