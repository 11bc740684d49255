// @vitest-environment happy-dom
/**
 * The hosted prompt's second layer under publisher restrictions and with publisher custom
 * purposes: the vendors' switches and details follow what the restrictions leave them, and the
 * custom purposes' switches reach the publisher TC segment.
 */
import { readFileSync } from 'node:fs';
import { PurposeRestriction, RestrictionType, TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import { isAnyConsent, scopeOf } from '../../../src/hosted-cmp/tcf-scope.ts';
import { choicesOfState, initialState } from '../../../src/hosted-cmp/tcf-switches.ts';
import { tcfModel } from '../../../src/hosted-cmp/tcf-view.ts';
import type { TcfSettings } from '../../../src/tcf/tc-choices.ts';
import { choicesOfTcString, encodeTcString, idsOf } from '../../../src/tcf/tc-string.ts';
import { type GvlJson, parseGvl } from '../../../src/wire/gvl.ts';

const gvl = parseGvl(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'))).value as GvlJson;
const messages = { consent: 'Consent', legitimateInterest: 'Legitimate interest', purposes: 'Purposes' };
const custom = [
  { id: 1, name: 'Our newsletter', legalBasis: 'consent' as const },
  { id: 2, name: 'Reader surveys', description: 'Short questions', legalBasis: 'legitimateInterest' as const },
];
// Vendor 8 declares purpose 2 on consent, vendor 25 purpose 7 flexibly on legitimate interest only.
const settings: TcfSettings = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 8, 25],
  publisherRestrictions: [
    { purpose: 2, type: 'notAllowed', vendors: [8] },
    { purpose: 7, type: 'requireConsent', vendors: [25] },
  ],
  publisherPurposes: { consent: [1], legitimateInterest: [7], custom },
};
const plain: TcfSettings = { ...settings, publisherRestrictions: [], publisherPurposes: {} };
const NOW = new Date('2026-11-27T10:00:00Z');

const modelOf = (s: TcfSettings) => tcfModel(gvl, scopeOf(gvl, s), messages, 'en', [], s.publisherPurposes?.custom);
const switchesOf = (s: TcfSettings, id: number) =>
  modelOf(s)
    .vendors.find((vendor) => vendor.id === String(id))!
    .switches.map((spec) => spec.key);
/** The vendor's details as term -> text. */
function detailsOf(s: TcfSettings, id: number): Record<string, string> {
  const list = modelOf(s)
    .vendors.find((vendor) => vendor.id === String(id))!
    .details() as HTMLElement;
  const terms = [...list.querySelectorAll('dt')].map((dt) => dt.textContent!);
  const values = [...list.querySelectorAll('dd')].map((dd) => dd.textContent!);
  return Object.fromEntries(terms.map((term, index) => [term, values[index]!]));
}
const purpose = (id: number) => gvl.purposes[String(id)]!.name;

describe('hosted prompt: vendors under publisher restrictions', () => {
  it('gives a vendor whose purpose is restricted to consent a consent switch, and lists the purpose under consent', () => {
    expect(switchesOf(plain, 25)).toEqual(['vl:25']);
    expect(switchesOf(settings, 25)).toEqual(['v:25', 'vl:25']);
    expect(detailsOf(plain, 25)['Consent']).toBeUndefined();
    expect(detailsOf(settings, 25)['Consent']).toBe(purpose(7));
    expect(detailsOf(settings, 25)['Legitimate interest']).not.toContain(purpose(7));
  });

  it('hides a purpose not allowed from that vendor only', () => {
    expect(detailsOf(plain, 8)['Consent']).toContain(purpose(2));
    expect(detailsOf(settings, 8)['Consent']).not.toContain(purpose(2));
    expect(detailsOf(settings, 8)['Consent']).toContain(purpose(1));
    // Vendor 1 still declares purpose 2, so the purpose keeps its switch.
    expect(detailsOf(settings, 1)['Consent']).toContain(purpose(2));
    const purposes = modelOf(settings).sections[0]!.items.map((item) => item.switches.map((spec) => spec.key));
    expect(purposes.flat()).toContain('p:2');
  });

  it('consents to vendor 25 from its switch, with the restriction in the string', () => {
    const state = initialState(scopeOf(gvl, settings), null, settings.publisherPurposes);
    for (const key of ['p:7', 'v:25']) state.set(key, true);
    const model = TCString.decode(
      encodeTcString(gvl, settings, choicesOfState(state, settings.publisherPurposes), NOW),
    );
    expect(idsOf(model.vendorConsents)).toEqual([25]);
    expect(model.publisherRestrictions.getVendors(new PurposeRestriction(7, RestrictionType.REQUIRE_CONSENT))).toEqual([
      25,
    ]);
    expect(model.publisherRestrictions.getVendors(new PurposeRestriction(2, RestrictionType.NOT_ALLOWED))).toEqual([8]);
  });
});

describe('hosted prompt: publisher custom purposes', () => {
  it('lists each custom purpose after the purposes with the switch of its legal basis', () => {
    const items = modelOf(settings).sections[0]!.items;
    expect(items.slice(-2)).toEqual([
      { name: 'Our newsletter', switches: [{ key: 'cp:1', label: 'Consent' }] },
      {
        name: 'Reader surveys',
        description: 'Short questions',
        switches: [{ key: 'cpl:2', label: 'Legitimate interest' }],
      },
    ]);
  });

  it('starts with no custom consent and the legitimate interest kept, and carries the switches into the publisher segment', () => {
    const state = initialState(scopeOf(gvl, settings), null, settings.publisherPurposes);
    expect([state.get('cp:1'), state.get('cpl:2')]).toEqual([false, true]);
    state.set('cp:1', true);
    state.set('cpl:2', false);
    state.set('p:1', true);
    state.set('pl:7', false);
    const choices = choicesOfState(state, settings.publisherPurposes);
    expect(choices.publisher).toEqual({
      consents: [1],
      legitimateInterests: [],
      customConsents: [1],
      customLegitimateInterests: [],
    });
    const tcString = encodeTcString(gvl, settings, choices, NOW);
    const model = TCString.decode(tcString);
    expect(idsOf(model.publisherConsents)).toEqual([1]);
    expect(idsOf(model.publisherCustomConsents)).toEqual([1]);
    expect(idsOf(model.publisherCustomLegitimateInterests)).toEqual([]);
    expect(Number(model.numCustomPurposes)).toBe(2);
    // Only a custom purpose consented is still consent: the prompt answers accept.
    const custom = initialState(scopeOf(gvl, settings), null, settings.publisherPurposes);
    expect(isAnyConsent(choicesOfState(custom, settings.publisherPurposes))).toBe(false);
    custom.set('cp:1', true);
    expect(isAnyConsent(choicesOfState(custom, settings.publisherPurposes))).toBe(true);
    // Re-opened on the stored string, the switches are where the reader left them.
    const reopened = initialState(scopeOf(gvl, settings), choicesOfTcString(tcString), settings.publisherPurposes);
    expect([reopened.get('cp:1'), reopened.get('cpl:2')]).toEqual([true, false]);
  });
});
