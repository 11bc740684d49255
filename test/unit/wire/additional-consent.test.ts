import { describe, expect, it } from 'vitest';
import {
  AC_MAX_IDS,
  AC_MAX_LENGTH,
  formatAdditionalConsent,
  isAdditionalConsent,
  parseAdditionalConsent,
} from '../../../src/wire/additional-consent.ts';
import {
  atpIdsOf,
  parseAtpIds,
  parseAtpNames,
  parseGoogleAtpList,
  readGoogleAtps,
} from '../../../src/wire/google-atps.ts';
import { parseTcfConfig } from '../../../src/wire/tcf-settings.ts';
import { collector } from '../../../src/wire/values.ts';

describe('parseAdditionalConsent', () => {
  it.each([
    ['2~1.35.41.101~dv.9.21.81', 2, [1, 35, 41, 101], [9, 21, 81]],
    ['2~~dv.1.2.3', 2, [], [1, 2, 3]],
    ['2~1.2.3~dv.', 2, [1, 2, 3], []],
    ['2~1.2.3~dv', 2, [1, 2, 3], []],
    ['1~1.35.41.101', 1, [1, 35, 41, 101], []],
    ['1~', 1, [], []],
  ])('reads %s', (text, version, consented, disclosed) => {
    expect(parseAdditionalConsent(text)).toEqual({ value: { version, consented, disclosed }, diagnostics: [] });
  });

  it.each([
    ['', 'empty'],
    ['3~1~dv.2', 'an unknown version'],
    ['2~1.35', 'no disclosed part'],
    ['2~1..35~dv.', 'an empty id'],
    ['2~01~dv.', 'a leading zero'],
    ['2~0~dv.', 'id 0'],
    ['2~1000000~dv.', 'an id above 999999'],
    ['2~1.x~dv.', 'a letter'],
    ['2~1~dv.2 ', 'a trailing space'],
    ['1~1~dv.2', 'a v1 string with a dv part'],
  ])('refuses %j (%s) with one diagnostic', (text) => {
    const { value, diagnostics } = parseAdditionalConsent(text);
    expect(value).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-additional-consent-invalid']);
  });

  it('refuses a value that is not a string, a string over the length bound and one over the id bound', () => {
    expect(parseAdditionalConsent(42).value).toBeNull();
    const many = Array.from({ length: AC_MAX_IDS + 1 }, (_, index) => index + 1).join('.');
    expect(many.length).toBeLessThan(AC_MAX_LENGTH);
    expect(parseAdditionalConsent(`2~${many}~dv.`).value).toBeNull();
    expect(isAdditionalConsent(`2~${many}~dv.`)).toBe(false);
    const exactly = Array.from({ length: AC_MAX_IDS }, (_, index) => index + 1).join('.');
    expect(parseAdditionalConsent(`2~${exactly}~dv.`).value?.consented).toHaveLength(AC_MAX_IDS);
    expect(isAdditionalConsent(`2~${exactly}~dv.`)).toBe(true);
    expect(parseAdditionalConsent(`2~~dv.${'1.'.repeat(AC_MAX_LENGTH / 2)}1`).value).toBeNull();
  });
});

describe('formatAdditionalConsent', () => {
  it('lists the consented ids first, the others after dv., ascending and each once', () => {
    expect(formatAdditionalConsent([89, 3, 2572, 3], () => true)).toBe('2~3.89.2572~dv.');
    expect(formatAdditionalConsent([89, 3, 2572], () => false)).toBe('2~~dv.3.89.2572');
    expect(formatAdditionalConsent([4, 10, 1, 2, 3], (id) => id === 1 || id === 10)).toBe('2~1.10~dv.2.3.4');
  });

  it('formats what parseAdditionalConsent reads back', () => {
    const text = formatAdditionalConsent([5, 1, 9], (id) => id > 4);
    expect(parseAdditionalConsent(text).value).toEqual({ version: 2, consented: [5, 9], disclosed: [1] });
  });
});

describe('readGoogleAtps and atpIdsOf', () => {
  it('reads ids or "all", and refuses anything else', () => {
    const into = collector('consent-tcf-config-invalid');
    expect(readGoogleAtps(into, [89, 2572], 'tcf.googleAtps')).toEqual([89, 2572]);
    expect(readGoogleAtps(into, 'all', 'tcf.googleAtps')).toBe('all');
    expect(into.diagnostics).toEqual([]);
    expect(readGoogleAtps(into, 'some', 'tcf.googleAtps')).toBeUndefined();
    expect(readGoogleAtps(into, [0, 5], 'tcf.googleAtps')).toEqual([5]);
    expect(into.diagnostics.map((d) => d.field)).toEqual(['tcf.googleAtps', 'tcf.googleAtps[0]']);
  });

  it('takes every id of the list for "all", the configured ones otherwise', () => {
    const list = [{ id: 7 }, { id: 3 }];
    expect(atpIdsOf('all', list)).toEqual([7, 3]);
    expect(atpIdsOf('all', null)).toEqual([]);
    expect(atpIdsOf([1, 2], list)).toEqual([1, 2]);
  });
});

describe('parseGoogleAtpList', () => {
  it('reads the rows of the header id,name,policy_url,domains, with quoted fields and several domains', () => {
    const csv =
      '\uFEFFid,name,policy_url,domains\r\n' +
      '89,Meta Platforms,https://www.facebook.com/about/privacy/update,facebook.com fbcdn.net\r\n' +
      '2572,"Snap, Inc.",https://snap.com/en-US/privacy/privacy-policy,"snapchat.com sc-static.net"\n';
    expect(parseGoogleAtpList(csv)).toEqual({
      value: [
        {
          id: 89,
          name: 'Meta Platforms',
          policyUrl: 'https://www.facebook.com/about/privacy/update',
          domains: ['facebook.com', 'fbcdn.net'],
        },
        {
          id: 2572,
          name: 'Snap, Inc.',
          policyUrl: 'https://snap.com/en-US/privacy/privacy-policy',
          domains: ['snapchat.com', 'sc-static.net'],
        },
      ],
      diagnostics: [],
    });
  });

  it('leaves out a bad row with a diagnostic naming its line', () => {
    const csv = [
      'id,name,policy_url,domains',
      'x,Bad id,https://a.example/p,',
      '1,Good,https://a.example/p,a.example',
      '1,Twice,https://a.example/p,',
      '2,,https://a.example/p,',
      '3,No URL,javascript:alert(1),',
    ].join('\n');
    const { value, diagnostics } = parseGoogleAtpList(csv);
    expect(value?.map((atp) => atp.id)).toEqual([1]);
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-google-atp-list-invalid', 'line 2'],
      ['consent-google-atp-list-invalid', 'line 4'],
      ['consent-google-atp-list-invalid', 'line 5'],
      ['consent-google-atp-list-invalid', 'line 6'],
    ]);
  });

  it('refuses a file with another header', () => {
    expect(parseGoogleAtpList('vendor,name\n1,A').value).toBeNull();
    expect(parseGoogleAtpList('').diagnostics.map((d) => d.code)).toEqual(['consent-google-atp-list-invalid']);
  });
});

describe('parseAtpIds', () => {
  it('reads the ids of the JSON the server serves, leaving out an entry without a usable id', () => {
    const { value, diagnostics } = parseAtpIds({ atps: [{ id: 89, name: 'A' }, { id: 'x' }, { id: 2572 }] });
    expect(value).toEqual([89, 2572]);
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-google-atp-list-invalid', 'googleAtpList.atps[1].id'],
    ]);
  });

  it('refuses JSON that is not the list', () => {
    expect(parseAtpIds([1, 2]).value).toBeNull();
    expect(parseAtpIds({}).value).toBeNull();
    expect(parseAtpIds({}).diagnostics.map((d) => d.code)).toEqual(['consent-google-atp-list-invalid']);
  });
});

describe('parseAtpNames', () => {
  it('reads the ids and names of the JSON the server serves', () => {
    const json = {
      atps: [
        { id: 89, name: 'Social Ads', policyUrl: 'https://a.example', domains: [] },
        { id: 3, name: 'B' },
      ],
    };
    expect(parseAtpNames(json)).toEqual({
      value: [
        { id: 89, name: 'Social Ads' },
        { id: 3, name: 'B' },
      ],
      diagnostics: [],
    });
  });

  it('leaves out an entry without a usable id or name, one diagnostic each', () => {
    const { value, diagnostics } = parseAtpNames({
      atps: [{ id: 'x', name: 'A' }, { id: 12 }, 'C', { id: 2572, name: 'D' }, { id: 4, name: '' }],
    });
    expect(value).toEqual([{ id: 2572, name: 'D' }]);
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-google-atp-list-invalid', 'googleAtpList.atps[0].id'],
      ['consent-google-atp-list-invalid', 'googleAtpList.atps[1].name'],
      ['consent-google-atp-list-invalid', 'googleAtpList.atps[2]'],
      ['consent-google-atp-list-invalid', 'googleAtpList.atps[4].name'],
    ]);
  });

  it('refuses JSON that is not the list', () => {
    expect(parseAtpNames({ atps: 5 }).value).toBeNull();
    expect(parseAtpNames({}).diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-google-atp-list-invalid', 'googleAtpList.atps'],
    ]);
  });
});

describe('tcf.googleAtps in the page config', () => {
  const base = { vendorListHref: '/tcf/vendor-list.json', vendors: [8] };

  it('keeps ids, and "all" with the list resolved against the page', () => {
    expect(parseTcfConfig({ ...base, googleAtps: [89] }, 'https://news.example/a').value).toMatchObject({
      googleAtps: [89],
    });
    const all = parseTcfConfig(
      { ...base, googleAtps: 'all', googleAtpListHref: '/tcf/google-atps.json' },
      'https://news.example/a',
    );
    expect(all).toMatchObject({
      value: { googleAtps: 'all', googleAtpListHref: 'https://news.example/tcf/google-atps.json' },
      diagnostics: [],
    });
  });

  it('drops "all" without a list, and a googleAtps of another type, with a diagnostic; the TC string still builds', () => {
    const all = parseTcfConfig({ ...base, googleAtps: 'all' }, 'https://news.example/a');
    expect(all.value).not.toHaveProperty('googleAtps');
    expect(all.value?.vendors).toEqual([8]);
    expect(all.diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-tcf-config-invalid', 'tcf.googleAtpListHref'],
    ]);
    const typo = parseTcfConfig({ ...base, googleAtps: '89' }, 'https://news.example/a');
    expect(typo.value).not.toHaveProperty('googleAtps');
    expect(typo.diagnostics.map((d) => d.field)).toEqual(['tcf.googleAtps']);
  });
});
