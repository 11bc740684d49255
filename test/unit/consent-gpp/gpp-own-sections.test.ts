// @vitest-environment happy-dom
import { CmpApi, GppModel } from '@iabgpp/cmpapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillOwnSections } from '../../../src/consent-gpp/gpp-sections.ts';
import type { ConsentSignal } from '../../../src/consent/signal-source.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import { parseGppConfig } from '../../../src/wire/gpp-config.ts';

const config = parseGppConfig({ approach: 'state', usnat: { SaleOptOutNotice: 1, SharingOptOutNotice: 1 } }).value;
const gpcReject = { state: 'rejected', consentMetadata: { gpc: true } } as unknown as ConsentSignal;

describe('fillOwnSections', () => {
  // The library reads a stub's queued listeners at start: an empty stub, as a page's would be.
  beforeAll(() => Object.assign(window, { __gpp: () => [] }));

  it('gives the state section as the applicable section', () => {
    const api = new CmpApi(0, 0);
    expect(fillOwnSections(api, gpcReject, false, config, ['usca', 8], () => expect.fail())).toEqual([8]);
    const back = new GppModel(api.getGppString());
    expect(back.getSection('usca')).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, Gpc: true });
    expect(back.hasSection('usnat')).toBe(false);
  });

  it('falls back to usnat, with one diagnostic, where the library cannot encode the section', () => {
    const api = new CmpApi(0, 0);
    const reports: Diagnostic[] = [];
    expect(fillOwnSections(api, gpcReject, false, config, ['usxx', 99], (d) => reports.push(d))).toEqual([7]);
    expect(reports.map((d) => d.code)).toEqual(['consent-gpp-section-unsupported']);
    const back = new GppModel(api.getGppString());
    expect(back.getHeader()).toMatchObject({ SectionIds: [7] });
    expect(back.getSection('usnat')).toMatchObject({
      SaleOptOut: 1,
      SharingOptOut: 1,
      TargetedAdvertisingOptOut: 1,
      Gpc: true,
    });
  });

  it('gives no section to an undecided reader', () => {
    const api = new CmpApi(0, 0);
    const pending = { state: 'unknown' } as unknown as ConsentSignal;
    expect(fillOwnSections(api, pending, false, config, ['usca', 8], () => expect.fail())).toEqual([-1]);
  });

  it('opts out of the categories consent.optOut recorded only', () => {
    const api = new CmpApi(0, 0);
    const limit = { state: 'rejected', consentMetadata: { usOptOuts: 'sensitiveData' } } as unknown as ConsentSignal;
    expect(fillOwnSections(api, limit, false, config, ['usca', 8], () => expect.fail())).toEqual([8]);
    const usca = new GppModel(api.getGppString()).getSection('usca') as Record<string, unknown>;
    expect(usca).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2, Gpc: false });
    expect(usca['SensitiveDataProcessing']).toEqual(Array(9).fill(1));
    const sale = { state: 'rejected', consentMetadata: { usOptOuts: 'sale' } } as unknown as ConsentSignal;
    fillOwnSections(api, sale, false, config, ['usnat', 7], () => expect.fail());
    const usnat = new GppModel(api.getGppString()).getSection('usnat') as Record<string, unknown>;
    expect(usnat).toMatchObject({ SaleOptOut: 1, SharingOptOut: 2, TargetedAdvertisingOptOut: 2 });
    expect((usnat['SensitiveDataProcessing'] as number[]).every((value) => value === 0)).toBe(true);
  });
});
