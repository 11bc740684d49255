import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import { choicesOfTcString, encodeTcString, idsOf } from '../../../src/tcf/tc-string.ts';
import { choicesOfDecision, type TcfSettings } from '../../../src/tcf/tc-choices.ts';
import { type GvlJson, parseGvl } from '../../../src/wire/gvl.ts';

const gvl = parseGvl(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'))).value as GvlJson;
const settings: TcfSettings = {
  cmpId: 300,
  cmpVersion: 7,
  vendors: [1, 2, 8, 25, 91, 4000],
  purposes: { ads: [2, 3, 4], measurement: [7, 8, 9] },
  specialFeatures: [1, 3],
  publisherCountryCode: 'de',
};
const NOW = new Date('2026-11-27T10:00:00Z');
const ALL_PURPOSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const decode = (choices: ReturnType<typeof choicesOfDecision>) =>
  TCString.decode(encodeTcString(gvl, settings, choices, NOW));

describe('choicesOfDecision', () => {
  it('consents to every purpose, listed vendor and listed special feature on accept', () => {
    expect(choicesOfDecision(gvl, settings, { state: 'accepted' })).toEqual({
      purposeConsents: ALL_PURPOSES,
      purposeLegitimateInterests: ALL_PURPOSES,
      vendorConsents: [1, 2, 8],
      vendorLegitimateInterests: [1, 2, 8, 25, 91],
      specialFeatureOptins: [1],
    });
  });

  it('consents to nothing and objects to every legitimate interest on reject', () => {
    expect(choicesOfDecision(gvl, settings, { state: 'rejected' })).toEqual({
      purposeConsents: [],
      purposeLegitimateInterests: [],
      vendorConsents: [],
      vendorLegitimateInterests: [],
      specialFeatureOptins: [],
    });
  });

  it('follows a config purpose for the TCF purposes mapped to it and the global state for the others', () => {
    const choices = choicesOfDecision(gvl, settings, {
      state: 'accepted',
      purposeConsents: { ads: false, measurement: true },
    });
    expect(choices.purposeConsents).toEqual([1, 5, 6, 7, 8, 9, 10, 11]);
    expect(choices.vendorConsents).toEqual([2]);
    expect(choices.vendorLegitimateInterests).toEqual([1, 2, 8, 25, 91]);
  });

  it('consents to a vendor only when every consent purpose it declares is consented', () => {
    const choices = choicesOfDecision(gvl, settings, { state: 'rejected', purposeConsents: { ads: true } });
    expect(choices.purposeConsents).toEqual([2, 3, 4]);
    expect(choices.vendorConsents).toEqual([]);
    expect(choices.specialFeatureOptins).toEqual([]);
  });

  it('objects to a vendor legitimate interest when a purpose it declares one for is refused', () => {
    const choices = choicesOfDecision(gvl, settings, { state: 'accepted', purposeConsents: { measurement: false } });
    expect(choices.purposeLegitimateInterests).toEqual([1, 2, 3, 4, 5, 6, 10, 11]);
    expect(choices.vendorLegitimateInterests).toEqual([2, 8, 91]);
  });

  it('reads purpose names as own properties only', () => {
    const choices = choicesOfDecision(
      gvl,
      { ...settings, purposes: { constructor: [1] } },
      { state: 'accepted', purposeConsents: {} },
    );
    expect(choices.purposeConsents).toEqual(ALL_PURPOSES);
  });
});

describe('encodeTcString', () => {
  it('encodes a service-specific string under the CMP ids with the GVL versions', () => {
    const model = decode(choicesOfDecision(gvl, settings, { state: 'accepted' }));
    expect(model.isServiceSpecific).toBe(true);
    expect([model.cmpId, model.cmpVersion, model.vendorListVersion, model.policyVersion]).toEqual([300, 7, 142, 5]);
    expect([model.publisherCountryCode, model.consentLanguage]).toEqual(['DE', 'EN']);
    expect(model.created?.toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it.each([
    ['DE', 'DE'],
    ['el', 'EL'],
    ['NO', 'NO'],
    ['PT-PT', 'PT'],
    // The IAB lists no Irish: the string says English rather than fail.
    ['GA', 'EN'],
    [undefined, 'EN'],
  ])('writes the consent language %s as %s', (consentLanguage, expected) => {
    const tcString = encodeTcString(
      gvl,
      { ...settings, ...(consentLanguage ? { consentLanguage } : {}) },
      choicesOfDecision(gvl, settings, { state: 'accepted' }),
      NOW,
    );
    expect(TCString.decode(tcString).consentLanguage).toBe(expected);
  });

  it('lists the GVL vendors among the configured ones in the DisclosedVendors segment', () => {
    const tcString = encodeTcString(gvl, settings, choicesOfDecision(gvl, settings, { state: 'rejected' }), NOW);
    expect(tcString.split('.').length).toBeGreaterThanOrEqual(2);
    expect(idsOf(TCString.decode(tcString).vendorsDisclosed)).toEqual([1, 2, 8, 25, 91]);
  });

  it('carries the accepted purposes, vendors and special features', () => {
    const model = decode(choicesOfDecision(gvl, settings, { state: 'accepted' }));
    expect(idsOf(model.purposeConsents)).toEqual(ALL_PURPOSES);
    expect(idsOf(model.purposeLegitimateInterests)).toEqual([2, 7, 8, 9, 10, 11]);
    expect(idsOf(model.vendorConsents)).toEqual([1, 2, 8]);
    expect(idsOf(model.vendorLegitimateInterests)).toEqual([1, 2, 8, 25, 91]);
    expect(idsOf(model.specialFeatureOptins)).toEqual([1]);
  });

  it('gives a rejection a valid string with nothing consented', () => {
    const model = decode(choicesOfDecision(gvl, settings, { state: 'rejected' }));
    expect(idsOf(model.purposeConsents)).toEqual([]);
    expect(idsOf(model.vendorConsents)).toEqual([]);
    expect(idsOf(model.vendorLegitimateInterests)).toEqual([]);
  });
});

describe('choicesOfTcString', () => {
  it('decodes the choices a string was built from', () => {
    const choices = choicesOfDecision(gvl, settings, { state: 'accepted', purposeConsents: { ads: false } });
    expect(choicesOfTcString(encodeTcString(gvl, settings, choices, NOW))).toEqual({
      ...choices,
      purposeLegitimateInterests: choices.purposeLegitimateInterests.filter((id) => ![1, 3, 4, 5, 6].includes(id)),
    });
  });

  it('answers null for a string that does not decode', () => {
    expect(choicesOfTcString('not a TC string')).toBeNull();
  });
});
