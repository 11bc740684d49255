/**
 * Publisher restrictions and the publisher TC segment in the strings of src/tcf/tc-string.ts,
 * decoded by the IAB library, and what the restrictions leave each vendor in the choices.
 */
import { readFileSync } from 'node:fs';
import { PurposeRestriction, RestrictionType, TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import { choicesOfDecision, type TcfSettings } from '../../../src/tcf/tc-choices.ts';
import { choicesOfTcString, encodeTcString, idsOf } from '../../../src/tcf/tc-string.ts';
import { restrictedVendor, unusableRestrictions } from '../../../src/tcf/restrictions.ts';
import { type GvlJson, parseGvl } from '../../../src/wire/gvl.ts';
import type { PublisherRestriction } from '../../../src/wire/publisher-tcf.ts';

const gvl = parseGvl(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'))).value as GvlJson;
const NOW = new Date('2026-11-27T10:00:00Z');
// Fixture vendors: 1 consent 1-4, LI 7 and 10, flexible 2, 7, 10; 2 consent 1, 8, 9; 8 consent
// 1-4 and 7, flexible 2 and 7; 25 LI 7-9, flexible 7 and 8; 52 consent 1, 5, 6, 11, LI 2 and 10.
const RESTRICTIONS: PublisherRestriction[] = [
  { purpose: 2, type: 'notAllowed', vendors: [8] },
  { purpose: 7, type: 'requireConsent', vendors: [1, 25] },
  { purpose: 2, type: 'requireLi', vendors: [1] },
  { purpose: 9, type: 'notAllowed', vendors: [2] },
  // Vendor 2 declares purpose 10 on neither basis, vendor 52 purpose 11 only on consent, 9999 is not listed.
  { purpose: 10, type: 'requireConsent', vendors: [2, 52, 9999] },
];
const settings: TcfSettings = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 2, 8, 25, 52],
  purposes: { ads: [2], measurement: [7, 8, 9] },
  publisherRestrictions: RESTRICTIONS,
};
const vendorsUnder = (model: ReturnType<typeof TCString.decode>, purpose: number, type: RestrictionType) =>
  model.publisherRestrictions.getVendors(new PurposeRestriction(purpose, type));
const decodeOf = (choices: ReturnType<typeof choicesOfDecision>, over: Partial<TcfSettings> = {}) =>
  TCString.decode(encodeTcString(gvl, { ...settings, ...over }, choices, NOW));

describe('restrictedVendor', () => {
  const vendor = (id: number) => gvl.vendors[String(id)]!;

  it('takes a purpose not allowed off both bases and moves a flexible one to the basis required', () => {
    expect(restrictedVendor(vendor(8), RESTRICTIONS)).toMatchObject({ purposes: [1, 3, 4, 7], legIntPurposes: [] });
    expect(restrictedVendor(vendor(1), RESTRICTIONS)).toMatchObject({
      purposes: [1, 3, 4, 7],
      legIntPurposes: [2, 10],
      flexiblePurposes: [10],
    });
    expect(restrictedVendor(vendor(25), RESTRICTIONS)).toMatchObject({ purposes: [7], legIntPurposes: [8, 9] });
  });

  it('leaves a vendor as the GVL has it when no restriction it can take names it', () => {
    expect(restrictedVendor(vendor(52), RESTRICTIONS)).toBe(vendor(52));
  });

  it('names the vendors each restriction cannot apply to', () => {
    expect(unusableRestrictions(gvl, RESTRICTIONS)).toEqual([{ index: 4, vendors: [2, 52, 9999] }]);
  });
});

describe('publisher restrictions in the TC string', () => {
  it('encodes each usable restriction, per purpose and type, in the core segment', () => {
    const model = decodeOf(choicesOfDecision(gvl, settings, { state: 'accepted' }));
    expect(model.isServiceSpecific).toBe(true);
    expect(vendorsUnder(model, 2, RestrictionType.NOT_ALLOWED)).toEqual([8]);
    expect(vendorsUnder(model, 7, RestrictionType.REQUIRE_CONSENT)).toEqual([1, 25]);
    expect(vendorsUnder(model, 2, RestrictionType.REQUIRE_LI)).toEqual([1]);
    expect(vendorsUnder(model, 9, RestrictionType.NOT_ALLOWED)).toEqual([2]);
    expect(vendorsUnder(model, 10, RestrictionType.REQUIRE_CONSENT)).toEqual([]);
    expect(model.publisherRestrictions.numRestrictions).toBe(4);
  });

  it('encodes no restriction section without the setting', () => {
    const model = decodeOf(choicesOfDecision(gvl, settings, { state: 'accepted' }), { publisherRestrictions: [] });
    expect(model.publisherRestrictions.numRestrictions).toBe(0);
  });

  it('grants each vendor by the declarations its restrictions leave', () => {
    // Purpose 2 refused: vendor 8 no longer needs it (not allowed), vendor 1 rests on LI for it
    // (objected to with the purpose); vendor 25 needs consent for 7, which stands.
    const choices = choicesOfDecision(gvl, settings, { state: 'accepted', purposeConsents: { ads: false } });
    expect(choices.vendorConsents).toEqual([1, 2, 8, 25, 52]);
    // 2 and 8 declare no LI purpose, only special purposes: their LI bit stands on accept.
    expect(choices.vendorLegitimateInterests).toEqual([2, 8, 25]);
    const model = decodeOf(choices);
    expect(idsOf(model.vendorConsents)).toEqual([1, 2, 8, 25, 52]);
    expect(idsOf(model.vendorLegitimateInterests)).toEqual([2, 8, 25]);
    // Without the restrictions, vendors 1 and 8 need purpose 2 for consent.
    const plain = choicesOfDecision(
      gvl,
      { ...settings, publisherRestrictions: [] },
      { state: 'accepted', purposeConsents: { ads: false } },
    );
    expect(plain.vendorConsents).toEqual([2, 52]);
  });

  it('withholds consent from a vendor whose consent purposes are all not allowed', () => {
    const all = [1, 2, 3, 4, 7].map((purpose) => ({ purpose, type: 'notAllowed' as const, vendors: [8] }));
    const choices = choicesOfDecision(gvl, { ...settings, publisherRestrictions: all }, { state: 'accepted' });
    expect(choices.vendorConsents).not.toContain(8);
    expect(idsOf(decodeOf(choices, { publisherRestrictions: all }).vendorConsents)).not.toContain(8);
  });

  it('measurement refused: vendor 25 keeps LI for 8 and 9 only if they stand, and needs consent for 7', () => {
    const choices = choicesOfDecision(gvl, settings, { state: 'accepted', purposeConsents: { measurement: false } });
    expect(choices.vendorConsents).not.toContain(25);
    expect(choices.vendorLegitimateInterests).not.toContain(25);
  });
});

describe('the publisher TC segment', () => {
  const publisherPurposes = {
    consent: [1, 3],
    legitimateInterest: [2, 7],
    custom: [
      { id: 1, name: 'Newsletter', legalBasis: 'consent' as const },
      { id: 4, name: 'Surveys', legalBasis: 'legitimateInterest' as const },
    ],
  };
  const withPublisher = { ...settings, publisherPurposes };

  it('carries the publisher purposes and custom purposes consented on accept', () => {
    const choices = choicesOfDecision(gvl, withPublisher, { state: 'accepted', purposeConsents: { ads: false } });
    expect(choices.publisher).toEqual({
      consents: [1, 3],
      legitimateInterests: [7],
      customConsents: [1],
      customLegitimateInterests: [4],
    });
    const model = decodeOf(choices, withPublisher);
    expect(idsOf(model.publisherConsents)).toEqual([1, 3]);
    expect(idsOf(model.publisherLegitimateInterests)).toEqual([7]);
    expect(Number(model.numCustomPurposes)).toBe(4);
    expect(idsOf(model.publisherCustomConsents)).toEqual([1]);
    expect(idsOf(model.publisherCustomLegitimateInterests)).toEqual([4]);
  });

  it('carries none on reject, with the custom purposes still counted', () => {
    const choices = choicesOfDecision(gvl, withPublisher, { state: 'rejected' });
    const model = decodeOf(choices, withPublisher);
    expect(idsOf(model.publisherConsents)).toEqual([]);
    expect(idsOf(model.publisherCustomConsents)).toEqual([]);
    expect(Number(model.numCustomPurposes)).toBe(4);
  });

  it('reads the segment back from the string, and leaves it out of a string without one', () => {
    const choices = choicesOfDecision(gvl, withPublisher, { state: 'accepted' });
    expect(choicesOfTcString(encodeTcString(gvl, withPublisher, choices, NOW))?.publisher).toEqual(choices.publisher);
    const plain = choicesOfDecision(gvl, settings, { state: 'accepted' });
    expect(plain.publisher).toBeUndefined();
    expect(choicesOfTcString(encodeTcString(gvl, settings, plain, NOW))?.publisher).toBeUndefined();
  });
});
