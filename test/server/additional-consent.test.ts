/**
 * Additional Consent on the reference server: Google's ATP list (GOOGLE_ATP_LIST, a CSV) served
 * as JSON, an instance's `tcf.googleAtps` embedded in the hosted prompt with the list's names
 * and policies, the AC string of an update checked by the AC reader and carried by the receipt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { FIXTURE_ATP_LIST_HEADER } from '../../server/development.ts';
import { bearer, buildApp, cookieOf, json, pageOrigin, writeFiles } from './app-harness.ts';

const tcfVendorList = resolve('fixtures/tcf/vendor-list.json');
const googleAtpList = resolve('fixtures/tcf/google-atps.csv');
const tcf = { cmpId: 300, cmpVersion: 2, vendors: [1, 8, 52] };
const embedded = (html: string) =>
  JSON.parse(/<script type="application\/json" id="prompt-config">([^<]*)<\/script>/.exec(html)![1]!);

describe('GET /tcf/google-atps.json', () => {
  it('serves the CSV as JSON, labelled when it is the fixture', async () => {
    const { app } = await buildApp({ googleAtpList, googleAtpListIsFixture: true });
    const response = await app.inject({ url: '/tcf/google-atps.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-google-atp-list']).toBe(FIXTURE_ATP_LIST_HEADER);
    expect(response.json().atps.map((atp: { id: number }) => atp.id)).toEqual([3, 12, 89, 2572]);
    expect(response.json().atps[1]).toEqual({
      id: 12,
      name: 'Fixture Retargeting, Ltd. (made up)',
      policyUrl: 'https://retargeting.example/policy',
      domains: ['retargeting.example'],
    });
  });

  it('answers 404 google-atp-list-missing without the setting, and for a file that is not the list', async () => {
    const unset = await buildApp();
    const missing = await unset.app.inject({ url: '/tcf/google-atps.json' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('google-atp-list-missing');
    const dir = mkdtempSync(join(tmpdir(), 'atps-'));
    writeFiles(dir, { 'list.csv': 'vendor,name\n1,A\n' });
    const wrong = await buildApp({ googleAtpList: join(dir, 'list.csv') });
    expect((await wrong.app.inject({ url: '/tcf/google-atps.json' })).statusCode).toBe(404);
    expect((await unset.app.inject({ url: '/tcf/google-atps.json' })).headers['x-google-atp-list']).toBeUndefined();
  });
});

describe('tcf.googleAtps of an instance', () => {
  const put = (app: Awaited<ReturnType<typeof buildApp>>['app'], body: object) =>
    app.inject({ method: 'PUT', url: '/admin/api/instances/news', headers: { ...bearer, ...json }, payload: body });

  it('embeds the listed ATPs the list names, ascending, with name and policy; "all" takes the whole list', async () => {
    const { app } = await buildApp({ tcfVendorList, googleAtpList });
    expect((await put(app, { tcf: { ...tcf, googleAtps: [89, 3, 4242] } })).statusCode).toBe(200);
    const some = embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body).tcf;
    expect(some.atps).toEqual([
      { id: 3, name: 'Fixture Ad Partner (made up)', policyUrl: 'https://ad-partner.example/privacy' },
      { id: 89, name: 'Fixture Social Ads (made up)', policyUrl: 'https://social-ads.example/privacy' },
    ]);
    expect(some.settings).not.toHaveProperty('googleAtps');
    expect((await put(app, { tcf: { ...tcf, googleAtps: 'all' } })).statusCode).toBe(200);
    const all = embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body).tcf;
    expect(all.atps.map((atp: { id: number }) => atp.id)).toEqual([3, 12, 89, 2572]);
  });

  it('refuses a googleAtps that is neither ids nor "all"', async () => {
    const { app } = await buildApp({ tcfVendorList, googleAtpList });
    const response = await put(app, { tcf: { ...tcf, googleAtps: 'some' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^tcf\.googleAtps: expected "all" or an array of Google ATP ids/);
  });

  it('embeds no ATPs without googleAtps, or without the list', async () => {
    const { app } = await buildApp({ tcfVendorList });
    expect((await put(app, { tcf: { ...tcf, googleAtps: 'all' } })).statusCode).toBe(200);
    expect(embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body).tcf.atps).toEqual([]);
  });
});

describe('the AC string of an update', () => {
  const post = (app: Awaited<ReturnType<typeof buildApp>>['app'], additionalConsent: string) =>
    app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, origin: pageOrigin },
      payload: {
        consentInstanceId: 'site',
        pageUserId: 'page-1',
        consentStateValue: 'accepted',
        consentMetadata: { consentStringType: 2, additionalConsent },
      },
    });

  it('is carried by the signed receipt', async () => {
    const { app } = await buildApp();
    const updated = await post(app, '2~3.89~dv.12');
    expect(updated.statusCode).toBe(200);
    const cookie = cookieOf(updated.headers['set-cookie']);
    const receipt = await app.inject({ url: `/consent/receipt/${updated.json().receiptId}`, headers: { cookie } });
    const keys = (await app.inject({ url: '/.well-known/page-consent-keys.json' })).json() as JSONWebKeySet;
    const { payload } = await compactVerify(receipt.json().jws, createLocalJWKSet(keys));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ additional_consent: '2~3.89~dv.12' });
  });

  it.each(['2~3.89', '2~x~dv.', '1~1~dv.2'])('refuses %s with 400 naming the field', async (bad) => {
    const { app } = await buildApp();
    const response = await post(app, bad);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^consentMetadata\.additionalConsent: expected an AC string/);
  });
});
