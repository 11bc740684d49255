import { describe, expect, it } from 'vitest';
import { readTcfStorageConsent } from '../../../src/wire/tcf-storage.ts';

const tcData = (patch: Record<string, unknown>) => ({
  gdprApplies: true,
  eventStatus: 'useractioncomplete',
  purpose: { consents: { '1': true, '2': false } },
  ...patch,
});

describe('readTcfStorageConsent (TCF purpose 1)', () => {
  it('allows when GDPR does not apply, whatever the purposes say', () => {
    expect(readTcfStorageConsent(tcData({ gdprApplies: false, purpose: undefined }))).toBe(true);
  });

  it('follows purpose 1 when GDPR applies', () => {
    expect(readTcfStorageConsent(tcData({}))).toBe(true);
    expect(readTcfStorageConsent(tcData({ purpose: { consents: { '1': false, '2': true } } }))).toBe(false);
    expect(readTcfStorageConsent(tcData({ purpose: { consents: {} } }))).toBe(false);
  });

  it('never reads a truthy value as consent', () => {
    expect(readTcfStorageConsent(tcData({ purpose: { consents: { '1': 1 } } }))).toBe(false);
    expect(readTcfStorageConsent(tcData({ purpose: { consents: { '1': 'true' } } }))).toBe(false);
    expect(readTcfStorageConsent(tcData({ purpose: 'x' }))).toBe(false);
  });

  it('has no answer while the prompt shows or for what is not TCData', () => {
    expect(readTcfStorageConsent(tcData({ eventStatus: 'cmpuishown' }))).toBeUndefined();
    expect(readTcfStorageConsent(tcData({ gdprApplies: 'yes' }))).toBeUndefined();
    expect(readTcfStorageConsent(null)).toBeUndefined();
    expect(readTcfStorageConsent([])).toBeUndefined();
  });
});
