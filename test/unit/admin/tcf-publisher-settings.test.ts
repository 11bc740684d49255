import { describe, expect, it } from 'vitest';
import {
  configTextWith,
  emptySettings,
  type PublisherSettings,
  publisherFields,
  settingsOf,
  tcfWith,
} from '../../../src/admin/tcf-publisher-settings.ts';

const stored = {
  cmpId: 300,
  cmpVersion: 1,
  siteGroup: { name: 'Daily News Group', url: 'https://news.example/our-sites' },
  vendors: [1, 8, 52],
  googleAtps: [89, 3],
  publisherRestrictions: [{ purpose: 2, type: 'requireLi', vendors: [8] }],
  publisherPurposes: {
    consent: [3, 1],
    legitimateInterest: [7],
    custom: [{ id: 1, name: 'Newsletter', legalBasis: 'consent' }],
  },
};

const filled = (): PublisherSettings => ({
  restrictions: [{ purpose: 2, type: 'notAllowed', vendors: [52, 8] }],
  consentPurposes: [3, 1],
  legitimateInterestPurposes: [],
  customPurposes: [{ id: '2', name: 'Events', description: 'Invitations', legalBasis: 'legitimateInterest' }],
  atps: { kind: 'chosen', ids: [2572, 12] },
  siteGroup: { name: ' Group ', url: 'https://group.example/sites' },
});

describe('settingsOf', () => {
  it('reads the four settings of a stored tcf into the fields', () => {
    expect(settingsOf(stored)).toEqual({
      settings: {
        restrictions: [{ purpose: 2, type: 'requireLi', vendors: [8] }],
        consentPurposes: [1, 3],
        legitimateInterestPurposes: [7],
        customPurposes: [{ id: '1', name: 'Newsletter', description: '', legalBasis: 'consent' }],
        atps: { kind: 'chosen', ids: [3, 89] },
        siteGroup: { name: 'Daily News Group', url: 'https://news.example/our-sites' },
      },
      diagnostics: [],
    });
  });

  it('reads "all" ATPs, and no tcf as empty fields', () => {
    expect(settingsOf({ ...stored, googleAtps: 'all' }).settings.atps).toEqual({ kind: 'all' });
    expect(settingsOf(null)).toEqual({ settings: emptySettings(), diagnostics: [] });
    expect(settingsOf(undefined)).toEqual({ settings: emptySettings(), diagnostics: [] });
  });

  it('leaves out what the wire readers refuse, with one diagnostic naming each field', () => {
    const { settings, diagnostics } = settingsOf({
      publisherRestrictions: [{ purpose: 1, type: 'requireLi', vendors: [8] }],
      googleAtps: 'some',
      siteGroup: { name: 'Group', url: 'ftp://group.example' },
    });
    expect(settings).toEqual(emptySettings());
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-tcf-restriction-invalid', 'tcf.publisherRestrictions[0].purpose'],
      ['invalid-field', 'tcf.googleAtps'],
      ['invalid-field', 'tcf.siteGroup.url'],
    ]);
  });

  it('refuses a tcf that is not an object', () => {
    expect(settingsOf(7).diagnostics.map((d) => [d.code, d.field])).toEqual([['invalid-field', 'tcf']]);
  });
});

describe('publisherFields', () => {
  it('writes the fields as the config stores them, ids sorted and empty ones left out', () => {
    expect(publisherFields(filled())).toEqual({
      publisherRestrictions: [{ purpose: 2, type: 'notAllowed', vendors: [8, 52] }],
      publisherPurposes: {
        consent: [1, 3],
        custom: [{ id: 2, name: 'Events', description: 'Invitations', legalBasis: 'legitimateInterest' }],
      },
      googleAtps: [12, 2572],
      siteGroup: { name: 'Group', url: 'https://group.example/sites' },
    });
    expect(publisherFields(emptySettings())).toEqual({});
  });

  it('writes what the server refuses as typed, so its answer names it', () => {
    const settings = {
      ...emptySettings(),
      restrictions: [{ purpose: 1, type: 'requireLi' as const, vendors: [] }],
      customPurposes: [{ id: 'x', name: '', description: ' ', legalBasis: 'consent' as const }],
      siteGroup: { name: 'Group', url: '' },
    };
    expect(publisherFields(settings)).toEqual({
      publisherRestrictions: [{ purpose: 1, type: 'requireLi', vendors: [] }],
      publisherPurposes: { custom: [{ id: 'x', name: '', legalBasis: 'consent' }] },
      siteGroup: { name: 'Group', url: '' },
    });
  });

  it('writes "all", and nothing for no ATPs', () => {
    expect(publisherFields({ ...emptySettings(), atps: { kind: 'all' } })).toEqual({ googleAtps: 'all' });
    expect(publisherFields({ ...emptySettings(), atps: { kind: 'chosen', ids: [] } })).toEqual({ googleAtps: [] });
  });
});

describe('tcfWith', () => {
  it('reads back what it wrote', () => {
    const tcf = tcfWith(stored, filled());
    expect(settingsOf(tcf).settings).toEqual({
      ...filled(),
      restrictions: [{ purpose: 2, type: 'notAllowed', vendors: [8, 52] }],
      consentPurposes: [1, 3],
      atps: { kind: 'chosen', ids: [12, 2572] },
      siteGroup: { name: 'Group', url: 'https://group.example/sites' },
    });
  });

  it('keeps the other keys and the order, removes emptied keys and adds new ones at the end', () => {
    const tcf = tcfWith(
      { cmpId: 300, siteGroup: stored.siteGroup, vendors: [8], googleAtps: 'all' },
      {
        ...emptySettings(),
        siteGroup: { name: 'Other', url: 'https://other.example' },
        consentPurposes: [1],
      },
    );
    expect(Object.keys(tcf!)).toEqual(['cmpId', 'siteGroup', 'vendors', 'publisherPurposes']);
    expect(tcf).toMatchObject({ siteGroup: { name: 'Other' }, vendors: [8], publisherPurposes: { consent: [1] } });
  });

  it('leaves no tcf as null when the fields are empty, and starts one when they are not', () => {
    expect(tcfWith(null, emptySettings())).toBeNull();
    expect(tcfWith(undefined, { ...emptySettings(), atps: { kind: 'all' } })).toEqual({ googleAtps: 'all' });
  });
});

describe('configTextWith', () => {
  it('writes the fields into the config JSON, every other field kept', () => {
    const text = JSON.stringify({ consentRequired: { default: true }, tcf: stored, xssiPrefix: ")]}'" }, null, 2);
    const written = JSON.parse(configTextWith(text, emptySettings())!);
    expect(Object.keys(written)).toEqual(['consentRequired', 'tcf', 'xssiPrefix']);
    expect(written.tcf).toEqual({ cmpId: 300, cmpVersion: 1, vendors: [1, 8, 52] });
  });

  it('adds tcf to a config without it, and reads empty text as an empty config', () => {
    expect(JSON.parse(configTextWith('', { ...emptySettings(), atps: { kind: 'all' } })!)).toEqual({
      tcf: { googleAtps: 'all' },
    });
    expect(configTextWith('{"tcf": null}', emptySettings())).toBe('{\n  "tcf": null\n}');
  });

  it('writes only the keys of the field that changed, so a value the fields could not read stays in the JSON', () => {
    const text = JSON.stringify({ tcf: { siteGroup: { name: 'Group', url: 'ftp://group.example' } } });
    const { settings } = settingsOf(JSON.parse(text).tcf);
    settings.atps = { kind: 'all' };
    expect(JSON.parse(configTextWith(text, settings, ['googleAtps'])!)).toEqual({
      tcf: { siteGroup: { name: 'Group', url: 'ftp://group.example' }, googleAtps: 'all' },
    });
    expect(JSON.parse(configTextWith(text, settings)!)).toEqual({ tcf: { googleAtps: 'all' } });
  });

  it('leaves text that is not a JSON object alone', () => {
    expect(configTextWith('{"tcf": ', filled())).toBeNull();
    expect(configTextWith('[1]', filled())).toBeNull();
  });
});
