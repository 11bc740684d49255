import { GppModel } from '@iabgpp/cmpapi';
import { describe, expect, it } from 'vitest';
import { fillSection, sectionOfPlace, USNAT } from '../../../src/consent-gpp/gpp-sections.ts';
import type { ConsentSignal } from '../../../src/consent/signal-source.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import { parseGppConfig } from '../../../src/wire/gpp-config.ts';
import { US_STATE_SECTIONS } from '../../../src/wire/gpp-state-sections.ts';

const config = (json: unknown) => parseGppConfig(json).value!;
const stateConfig = config({
  approach: 'state',
  usnat: { SaleOptOutNotice: 1, SharingOptOutNotice: 1, TargetedAdvertisingOptOutNotice: 1, MspaCoveredTransaction: 2 },
});
const signal = (state: 'accepted' | 'rejected', gpc = false) =>
  ({ state, consentMetadata: gpc ? { gpc: true } : undefined }) as unknown as ConsentSignal;

/** Encodes `name` for the decision, then decodes the string with the IAB library: the fields a vendor reads. */
function decoded(name: string, decision: ConsentSignal, json = stateConfig) {
  const model = new GppModel();
  const reports: Diagnostic[] = [];
  fillSection(model, name, decision, json, (d) => reports.push(d));
  const string = model.encode();
  const back = new GppModel(string);
  return {
    header: back.getHeader() as { SectionIds: number[] },
    fields: back.getSection(name) as Record<string, unknown>,
    reports,
  };
}

describe('sectionOfPlace', () => {
  it.each([
    ['us-ca', 'usca', 8],
    ['us-va', 'usva', 9],
    ['us-co', 'usco', 10],
    ['us-ut', 'usut', 11],
    ['us-ct', 'usct', 12],
    ['us-fl', 'usfl', 13],
    ['us-tx', 'ustx', 16],
    ['us-ri', 'usri', 27],
    ['us-ny', 'usnat', 7],
    ['us-wa', 'usnat', 7],
    ['unknown', 'usnat', 7],
  ])('gives a reader in %s the section %s (%d)', (subdivision, name, id) => {
    expect(sectionOfPlace(stateConfig, { country: 'us', subdivision })).toEqual([name, id]);
  });

  it('gives usnat with the national approach, outside the US and without a place', () => {
    expect(sectionOfPlace(config({ usnat: {} }), { country: 'us', subdivision: 'us-ca' })).toEqual(USNAT);
    expect(sectionOfPlace(stateConfig, { country: 'ca', subdivision: 'ca-qc' })).toEqual(USNAT);
    expect(sectionOfPlace(stateConfig, null)).toEqual(USNAT);
  });

  it('gives usnat for a subdivision that is no US state (page-geo reads it as unknown and reports it)', () => {
    expect(sectionOfPlace(stateConfig, { country: 'us', subdivision: 'us-zz' })).toEqual(USNAT);
    expect(sectionOfPlace(stateConfig, { country: 'us', subdivision: 'US-CA' })).toEqual(USNAT);
  });

  it('knows every section the IAB library encodes, by the id the library gives it', () => {
    for (const [, name, id] of US_STATE_SECTIONS) {
      const model = new GppModel();
      model.setFieldValue(name, 'SaleOptOut', 1);
      expect(new GppModel(model.encode()).getHeader()).toMatchObject({ SectionIds: [id] });
    }
  });
});

describe('fillSection', () => {
  it('encodes a California reader with GPC as opted out of sale and sharing, GPC set', () => {
    const { header, fields, reports } = decoded('usca', signal('rejected', true));
    expect(reports).toEqual([]);
    expect(header.SectionIds).toEqual([8]);
    expect(fields).toMatchObject({
      SaleOptOutNotice: 1,
      SharingOptOutNotice: 1,
      SaleOptOut: 1,
      SharingOptOut: 1,
      MspaCoveredTransaction: 2,
      Gpc: true,
      // The limit-use opt-out of California covers the sensitive data: a reject opts out of it.
      SensitiveDataProcessing: [1, 1, 1, 1, 1, 1, 1, 1, 1],
      KnownChildSensitiveDataConsents: [0, 0],
      PersonalDataConsents: 0,
    });
  });

  it('encodes an accept as no opt-out, and claims no consent', () => {
    const { fields } = decoded('usca', signal('accepted'));
    expect(fields).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2, Gpc: false, PersonalDataConsents: 0 });
    expect(fields['SensitiveDataProcessing']).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it.each(US_STATE_SECTIONS.map(([, name]) => name))('never writes a consent in %s', (name) => {
    for (const decision of [signal('accepted'), signal('rejected'), signal('rejected', true)]) {
      const { fields } = decoded(name, decision);
      for (const field of [
        'KnownChildSensitiveDataConsents',
        'PersonalDataConsents',
        'AdditionalDataProcessingConsent',
      ])
        expect([fields[field] ?? 0].flat().every((v) => v === 0)).toBe(true);
      // Outside the opt-out sections, sensitive data is a consent: 2 would claim one.
      expect([fields['SensitiveDataProcessing'] ?? []].flat().includes(2)).toBe(false);
      expect(fields['SaleOptOut']).toBe(decision.state === 'accepted' ? 2 : 1);
    }
  });

  it('opts a Virginia reject out of targeted advertising, where the section has no GPC segment', () => {
    const { header, fields } = decoded('usva', signal('rejected'));
    expect(header.SectionIds).toEqual([9]);
    expect(fields).toMatchObject({ SaleOptOut: 1, TargetedAdvertisingOptOut: 1, SaleOptOutNotice: 1 });
    expect(fields).not.toHaveProperty('Gpc');
    // Virginia's sensitive data needs a consent: left at 0, never "no consent" claimed for a reader we did not ask.
    expect(fields['SensitiveDataProcessing']).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('takes a section object of its own over the usnat fields, and reports a field the section lacks', () => {
    const json = config({
      approach: 'state',
      usnat: { SaleOptOutNotice: 1 },
      usco: { SaleOptOutNotice: 2, SharingOptOutNotice: 1 },
    });
    const { fields, reports } = decoded('usco', signal('rejected', true), json);
    expect(fields).toMatchObject({ SaleOptOutNotice: 2, SaleOptOut: 1, TargetedAdvertisingOptOut: 1, Gpc: true });
    expect(reports.map((d) => `${d.code} ${d.expected}`)).toEqual([
      'consent-gpp-config-invalid gpp.usco.SharingOptOutNotice: a field of usco',
    ]);
  });

  it('throws for a section the library does not encode', () => {
    expect(() => decoded('usxx', signal('rejected'))).toThrow();
  });
});
