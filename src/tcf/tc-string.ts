/**
 * TC strings from our own prompts (docs/consent.md, "TC strings from our own prompts"), encoded
 * and decoded by the IAB's `@iabtechlabtcf/core`: a service-specific string under the
 * publisher's CMP id, with the GVL's vendor-list and policy versions and the DisclosedVendors
 * segment listing the vendors the site works with, the publisher restrictions the GVL allows
 * (src/tcf/restrictions.ts) and the publisher TC segment. Shared by the TCF part and the hosted
 * prompt's frame; no DOM, no network.
 */
import { GVL, PurposeRestriction, RestrictionType, TCModel, TCString } from '@iabtechlabtcf/core';
import type { GvlJson } from '../wire/gvl.ts';
import type { PublisherRestriction } from '../wire/publisher-tcf.ts';
import { listedVendors, type PublisherChoices, type TcfChoices, type TcfSettings } from './tc-choices.ts';
import { isUsable } from './restrictions.ts';

const RESTRICTION = {
  notAllowed: RestrictionType.NOT_ALLOWED,
  requireConsent: RestrictionType.REQUIRE_CONSENT,
  requireLi: RestrictionType.REQUIRE_LI,
} as const;

/** The usable restrictions into the model's vector (the library would drop the others silently). */
function addRestrictions(model: TCModel, gvlJson: GvlJson, restrictions: readonly PublisherRestriction[]): void {
  for (const { purpose, type, vendors } of restrictions) {
    const restriction = new PurposeRestriction(purpose, RESTRICTION[type]);
    for (const id of vendors) {
      const vendor = Object.hasOwn(gvlJson.vendors, String(id)) ? gvlJson.vendors[String(id)] : undefined;
      if (vendor && isUsable(vendor, purpose, type)) model.publisherRestrictions.add(id, restriction);
    }
  }
}

/** The publisher TC segment: the custom purposes counted up to the highest configured id. */
function setPublisher(model: TCModel, settings: TcfSettings, publisher: PublisherChoices | undefined): void {
  const custom = settings.publisherPurposes?.custom ?? [];
  model.numCustomPurposes = Math.max(0, ...custom.map((purpose) => purpose.id));
  if (!publisher) return;
  model.publisherConsents.set(publisher.consents);
  model.publisherLegitimateInterests.set(publisher.legitimateInterests);
  model.publisherCustomConsents.set(publisher.customConsents);
  model.publisherCustomLegitimateInterests.set(publisher.customLegitimateInterests);
}

const LETTERS = /^[A-Z]{2}$/;

/**
 * The library's GVL over `gvlJson`, in `language` when the IAB lists it (the library writes the
 * GVL's language as the string's `consentLanguage`, whatever the model says), else English.
 */
function gvlIn(gvlJson: GvlJson, language: string | undefined): GVL {
  const json = gvlJson as unknown as ConstructorParameters<typeof GVL>[0];
  try {
    return new GVL(json, language ? { language } : undefined);
  } catch {
    return new GVL(json);
  }
}

/** The model of `choices` over `gvlJson`, dated `now` (day precision, as the format stores it). */
function modelOf(gvlJson: GvlJson, settings: TcfSettings, choices: TcfChoices, now: Date): TCModel {
  const model = new TCModel(gvlIn(gvlJson, settings.consentLanguage));
  model.cmpId = settings.cmpId;
  model.cmpVersion = settings.cmpVersion;
  model.isServiceSpecific = true;
  const country = settings.publisherCountryCode?.toUpperCase();
  if (country && LETTERS.test(country)) model.publisherCountryCode = country;
  model.purposeConsents.set(choices.purposeConsents);
  model.purposeLegitimateInterests.set(choices.purposeLegitimateInterests);
  model.vendorConsents.set(choices.vendorConsents);
  model.vendorLegitimateInterests.set(choices.vendorLegitimateInterests);
  model.specialFeatureOptins.set(choices.specialFeatureOptins);
  model.vendorsDisclosed.set(listedVendors(gvlJson, settings).map((vendor) => vendor.id));
  addRestrictions(model, gvlJson, settings.publisherRestrictions ?? []);
  setPublisher(model, settings, choices.publisher);
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  model.created = day;
  model.lastUpdated = day;
  return model;
}

/** The TC string of `choices`; throws (the library's error) when the settings cannot be encoded. */
export function encodeTcString(gvlJson: GvlJson, settings: TcfSettings, choices: TcfChoices, now = new Date()): string {
  return TCString.encode(modelOf(gvlJson, settings, choices, now));
}

/** The ids set in one of the library's vectors, ascending. */
export function idsOf(vector: { forEach(callback: (value: boolean, id: number) => void): void }): number[] {
  const ids: number[] = [];
  vector.forEach((value, id) => {
    if (value) ids.push(id);
  });
  return ids;
}

/** The choices a TC string carries (to re-open a prompt on them); null when it does not decode. */
export function choicesOfTcString(tcString: string): TcfChoices | null {
  try {
    const model = TCString.decode(tcString);
    const publisher = {
      consents: idsOf(model.publisherConsents),
      legitimateInterests: idsOf(model.publisherLegitimateInterests),
      customConsents: idsOf(model.publisherCustomConsents),
      customLegitimateInterests: idsOf(model.publisherCustomLegitimateInterests),
    };
    const hasPublisher = Number(model.numCustomPurposes) > 0 || Object.values(publisher).some((ids) => ids.length);
    return {
      purposeConsents: idsOf(model.purposeConsents),
      purposeLegitimateInterests: idsOf(model.purposeLegitimateInterests),
      vendorConsents: idsOf(model.vendorConsents),
      vendorLegitimateInterests: idsOf(model.vendorLegitimateInterests),
      specialFeatureOptins: idsOf(model.specialFeatureOptins),
      ...(hasPublisher ? { publisher } : {}),
    };
  } catch {
    return null;
  }
}
