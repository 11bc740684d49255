import { GVL, PurposeRestriction, RestrictionType, TCModel, TCString } from '@iabtechlabtcf/core';
import { GppModel } from '@iabgpp/cmpapi';
import { describe, expect, it } from 'vitest';
import { syntheticGvl } from '../../../fixtures/tcf/synthetic-gvl.mjs';
import { encodeTcString, idsOf } from '../../../src/tcf/tc-string.ts';
import { choicesOfDecision, type TcfSettings } from '../../../src/tcf/tc-choices.ts';
import {
  checkGppString,
  checkTcString,
  MAX_IDS,
  MAX_LENGTH,
  MAX_VENDOR_ID,
} from '../../../src/wire/consent-string-bounds.ts';
import { type GvlJson, parseGvl } from '../../../src/wire/gvl.ts';
import {
  base64url,
  CORE_HEAD,
  gppHeader,
  gppHeaderBomb,
  int,
  rangeVector,
  tcBomb,
  tcString,
} from '../../consent-string-bombs.ts';

const gvl = parseGvl(syntheticGvl(1000)).value as GvlJson;
const everyVendor = Array.from({ length: 1000 }, (_, index) => index + 1);
const settings: TcfSettings = { cmpId: 300, cmpVersion: 1, vendors: everyVendor, purposes: {} };
const NOW = new Date('2026-11-27T10:00:00Z');
const refusal = (got: string) =>
  expect.objectContaining({ code: 'consent-string-refused', got: expect.stringContaining(got) });

describe('checkTcString', () => {
  it('passes the strings of the IAB encoder over a full-size vendor list', () => {
    for (const state of ['accepted', 'rejected'] as const) {
      const text = encodeTcString(gvl, settings, choicesOfDecision(gvl, settings, { state }), NOW);
      expect(checkTcString(text)).toBeNull();
    }
    const some = everyVendor.filter((id) => id % 3 !== 0);
    const choices = {
      ...choicesOfDecision(gvl, settings, { state: 'accepted' }),
      vendorConsents: some,
      vendorLegitimateInterests: some.slice(0, 400),
    };
    expect(checkTcString(encodeTcString(gvl, settings, choices, NOW))).toBeNull();
  });

  it('passes a string with publisher restrictions over hundreds of vendors', () => {
    const model = new TCModel(new GVL(gvl as unknown as ConstructorParameters<typeof GVL>[0]));
    model.cmpId = 300;
    model.vendorConsents.set(everyVendor);
    for (const purpose of [2, 3, 4, 7])
      for (const id of everyVendor.slice(0, 600))
        model.publisherRestrictions.add(id, new PurposeRestriction(purpose, RestrictionType.REQUIRE_CONSENT));
    const text = TCString.encode(model);
    expect(idsOf(TCString.decode(text).vendorConsents)).toHaveLength(1000);
    expect(checkTcString(text)).toBeNull();
  });

  it('builds its strings by hand as the IAB decoder reads them', () => {
    const decoded = TCString.decode(
      tcString(
        [
          [3, 5],
          [9, 9],
        ],
        [[20, 22]],
      ),
    );
    expect(idsOf(decoded.vendorConsents)).toEqual([3, 4, 5, 9]);
    expect(decoded.publisherRestrictions.getVendors()).toEqual([20, 21, 22]);
  });

  it('refuses ranges over ids up to 65,535 before any decoder expands them', () => {
    const bomb = tcBomb();
    expect(bomb.length).toBeGreaterThan(8000);
    expect(bomb.length).toBeLessThanOrEqual(MAX_LENGTH);
    expect(checkTcString(bomb)).toEqual(refusal('vendor id 65535'));
  });

  it('refuses ranges within the vendor ids that expand to more ids than the cap, in any section', () => {
    const spans = (count: number) => Array.from({ length: count }, () => [1, MAX_VENDOR_ID] as [number, number]);
    expect(checkTcString(tcString(spans(5)))).toBeNull();
    expect(checkTcString(tcString(spans(6)))).toEqual(refusal(`more than ${MAX_IDS} ids`));
    expect(checkTcString(tcString([], spans(6)))).toEqual(refusal(`more than ${MAX_IDS} ids`));
    const disclosed = base64url(int(1, 3) + rangeVector(spans(6)));
    expect(checkTcString(`${tcString([])}.${disclosed}`)).toEqual(refusal(`more than ${MAX_IDS} ids`));
  });

  it('refuses a bit field sized past the largest vendor id, and a string past the length cap', () => {
    expect(checkTcString(base64url(CORE_HEAD + int(20_000, 16) + '0' + '1'.repeat(20_000)))).toEqual(
      refusal('vendor id 20000'),
    );
    expect(checkTcString('C'.repeat(MAX_LENGTH + 1))).toEqual(refusal(`${MAX_LENGTH + 1} characters`));
  });

  it('describes the refusal in one message', () => {
    expect(checkTcString(tcString([[1, 65_535]]))).toEqual({
      code: 'consent-string-refused',
      expected: `a TC string of at most ${MAX_LENGTH} characters and ${MAX_IDS} ids, each up to ${MAX_VENDOR_ID}`,
      got: '"vendor id 65535"',
    });
  });

  it('leaves a string that does not decode to the decoder', () => {
    expect(checkTcString('not a TC string!')).toBeNull();
    expect(checkTcString('')).toBeNull();
  });
});

describe('checkGppString', () => {
  const tcfeuv2 = encodeTcString(gvl, settings, choicesOfDecision(gvl, settings, { state: 'accepted' }), NOW);

  it('passes the strings of the IAB encoder, with a TCF section over a full-size vendor list', () => {
    const model = new GppModel();
    model.decodeSection('tcfeuv2', tcfeuv2);
    model.setFieldValue('usnat', 'SaleOptOut', 1);
    model.setFieldValue(
      'tcfcav1',
      'VendorExpressConsent',
      everyVendor.filter((id) => id % 2),
    );
    model.setFieldValue('tcfcav1', 'VendorImpliedConsent', everyVendor);
    const text = model.encode();
    expect(new GppModel(text).getSectionIds()).toEqual([2, 5, 7]);
    expect(checkGppString(text)).toBeNull();
    expect(checkGppString(tcfeuv2)).toBeNull();
  });

  it('refuses a header whose ranges list more section ids than the string has sections', () => {
    const model = new GppModel();
    model.setFieldValue('uspv1', 'Notice', 'Y');
    model.setFieldValue('usnat', 'SaleOptOut', 1);
    model.setFieldValue('usca', 'SaleOptOut', 1);
    expect(gppHeader([[6, 8]])).toBe(model.encode().split('~')[0]?.replace(/A+$/, ''));
    const bomb = gppHeaderBomb();
    expect(bomb.length).toBeGreaterThan(1000);
    expect(checkGppString(bomb)).toEqual(refusal('more section ids than 1 sections'));
    expect(checkGppString(`${gppHeader([[2, 3]])}~a`)).toEqual(refusal('more section ids'));
  });

  it('refuses a TCF section built of ranges, in a GPP string and alone', () => {
    const bomb = tcString(Array.from({ length: 200 }, () => [1, 65_535] as [number, number]));
    expect(checkGppString(`${gppHeader([[2, 2]])}~${bomb}`)).toEqual(refusal('vendor id 65535'));
    expect(checkGppString(bomb)).toEqual(refusal('vendor id 65535'));
  });

  it('passes Canadian sections of the IAB encoder, ranges and bit fields', () => {
    for (const [express, implied] of [
      [everyVendor.filter((id) => id % 2), everyVendor],
      [[], everyVendor],
      [
        [1, 5, 9],
        [2, 3, 4, 700],
      ],
    ]) {
      const model = new GppModel();
      model.setFieldValue('tcfcav1', 'VendorExpressConsent', express);
      model.setFieldValue('tcfcav1', 'VendorImpliedConsent', implied);
      model.setFieldValue('tcfcav1', 'DisclosedVendors', everyVendor.slice(0, 300));
      const text = model.encode();
      expect(new GppModel(text).getFieldValue('tcfcav1', 'VendorImpliedConsent')).toEqual(implied);
      expect(checkGppString(text)).toBeNull();
    }
  });

  it('refuses a Canadian section of the older 16-bit ranges, which the library reads once the newer reading fails', () => {
    const canadian = (ranges: [number, number][]) =>
      base64url(int(1, 6) + int(0, 193) + rangeVector(ranges) + int(0, 17) + int(0, 12));
    const small = `${gppHeader([[5, 5]])}~${canadian([[3, 200]])}`;
    expect(new GppModel(small).getFieldValue('tcfcav1', 'VendorExpressConsent')).toHaveLength(198);
    expect(checkGppString(small)).toBeNull();
    const bomb = `${gppHeader([[5, 5]])}~${canadian(Array.from({ length: 200 }, () => [1, 65_535] as [number, number]))}`;
    expect(checkGppString(bomb)).toEqual(refusal('vendor id'));
    const wide = `${gppHeader([[5, 5]])}~${canadian(Array.from({ length: 6 }, () => [1, MAX_VENDOR_ID] as [number, number]))}`;
    expect(checkGppString(wide)).toEqual(refusal(`more than ${MAX_IDS} ids`));
  });

  it('refuses a Canadian section whose ranges expand past the vendor ids (built by the IAB encoder)', () => {
    const model = new GppModel();
    model.setFieldValue(
      'tcfcav1',
      'VendorExpressConsent',
      Array.from({ length: 60_000 }, (_, index) => index + 1),
    );
    expect(checkGppString(model.encode())).toEqual(refusal('vendor id 60000'));
  });

  it('refuses a string past the length cap', () => {
    expect(checkGppString(`DBABMA~${'A'.repeat(MAX_LENGTH)}`)).toEqual(refusal(`${MAX_LENGTH + 7} characters`));
  });
});
