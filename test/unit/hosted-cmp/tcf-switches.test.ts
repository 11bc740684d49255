import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import { scopeOf } from '../../../src/hosted-cmp/tcf-scope.ts';
import { choicesOfState, initialState } from '../../../src/hosted-cmp/tcf-switches.ts';
import { choicesOfTcString, encodeTcString, idsOf } from '../../../src/tcf/tc-string.ts';
import type { TcfSettings } from '../../../src/tcf/tc-choices.ts';
import { type GvlJson, parseGvl } from '../../../src/wire/gvl.ts';

const gvl = parseGvl(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'))).value as GvlJson;
const settings: TcfSettings = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 2, 8, 25, 52],
  specialFeatures: [1, 2],
  publisherCountryCode: 'DE',
  consentLanguage: 'FR',
};
const scope = scopeOf(gvl, settings);
const NOW = new Date('2026-11-27T10:00:00Z');

/** The string the prompt builds from the switches, decoded by the IAB library. */
const decoded = (state: ReturnType<typeof initialState>) => {
  const tcString = encodeTcString(gvl, settings, choicesOfState(state), NOW);
  const model = TCString.decode(tcString);
  return {
    tcString,
    purposeConsents: idsOf(model.purposeConsents),
    purposeLegitimateInterests: idsOf(model.purposeLegitimateInterests),
    vendorConsents: idsOf(model.vendorConsents),
    vendorLegitimateInterests: idsOf(model.vendorLegitimateInterests),
    specialFeatureOptins: idsOf(model.specialFeatureOptins),
    vendorsDisclosed: idsOf(model.vendorsDisclosed),
    restrictions: model.publisherRestrictions.numRestrictions,
    header: [
      model.cmpId,
      model.cmpVersion,
      model.isServiceSpecific,
      model.publisherCountryCode,
      model.consentLanguage,
      model.vendorListVersion,
      model.policyVersion,
    ],
  };
};

describe('hosted prompt: second-layer switches to the TC string', () => {
  it('offers a switch for each purpose, legitimate interest, special feature and vendor the selection declares', () => {
    expect([...initialState(scope, null).keys()].sort()).toEqual(
      [
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((id) => `p:${id}`),
        ...[2, 7, 8, 9, 10].map((id) => `pl:${id}`),
        'sf:1',
        'sf:2',
        'v:1',
        'v:2',
        'v:25',
        'v:52',
        'v:8',
        // Vendors 2 and 8 declare no legitimate-interest purpose: no objection switch.
        'vl:1',
        'vl:25',
        'vl:52',
      ].sort(),
    );
  });

  it('starts with no consent and every legitimate interest kept', () => {
    expect(decoded(initialState(scope, null))).toMatchObject({
      purposeConsents: [],
      purposeLegitimateInterests: [2, 7, 8, 9, 10],
      vendorConsents: [],
      vendorLegitimateInterests: [1, 25, 52],
      specialFeatureOptins: [],
    });
  });

  it('carries each switch the reader changed: purposes, LI objections, special features, vendor consent and LI', () => {
    const state = initialState(scope, null);
    for (const key of ['p:1', 'p:3', 'p:9', 'sf:2', 'v:8', 'v:52']) state.set(key, true);
    for (const key of ['pl:7', 'pl:10', 'vl:52']) state.set(key, false);
    expect(decoded(state)).toMatchObject({
      purposeConsents: [1, 3, 9],
      purposeLegitimateInterests: [2, 8, 9],
      vendorConsents: [8, 52],
      vendorLegitimateInterests: [1, 25],
      specialFeatureOptins: [2],
      // The site's vendors, disclosed whatever the choice; no publisher restrictions are set.
      vendorsDisclosed: [1, 2, 8, 25, 52],
      restrictions: 0,
      header: [300, 2, true, 'DE', 'FR', 142, 5],
    });
  });

  it('re-opens on the choices of the stored string: the same switches give the same string', () => {
    const state = initialState(scope, null);
    for (const key of ['p:2', 'p:4', 'sf:1', 'v:1']) state.set(key, true);
    state.set('vl:25', false);
    const { tcString } = decoded(state);
    const reopened = initialState(scope, choicesOfTcString(tcString));
    expect(reopened).toEqual(state);
    expect(decoded(reopened).tcString).toBe(tcString);
  });
});
