import { describe, expect, it } from 'vitest';
import { strictRead } from '../../server/strict.ts';
import { readBoolean, readMap, readText } from '../../src/wire/values.ts';
import { bearer, buildApp, json } from './app-harness.ts';

const update = (body: object) => ({
  consentInstanceId: 'site',
  pageUserId: 'page-1',
  consentStateValue: 'accepted',
  ...body,
});

describe('strict reading of the shared readers', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
  ])('refuses %s in a string with invalid-field naming the field', (_name, bad) => {
    expect(() => strictRead(readText(200, 1), bad, 'pageUserId')).toThrow(
      /^pageUserId: expected a string of 1-200 characters, got /,
    );
    expect(() => strictRead(readMap(readBoolean), { [bad]: true }, 'purposeConsents')).toThrow(
      /^purposeConsents: expected a key of 1-100 characters, got /,
    );
  });

  it('keeps surrogate pairs (emoji)', () => {
    expect(strictRead(readText(10, 1), 'ok \u{1F600}', 'field')).toBe('ok \u{1F600}');
  });

  it.each([
    ['pageUserId', update({ pageUserId: 'p\u0000' })],
    ['consentString', update({ consentString: 'CP\uD800' })],
    ['purposeConsents', update({ purposeConsents: { 'ads\u0000': true } })],
    ['consentMetadata.additionalConsent', update({ consentMetadata: { additionalConsent: '1~\uDFFF' } })],
  ])('answers an update with a bad %s with 400 naming it and writes nothing', async (field, payload) => {
    const { app, store } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid-field');
    expect(response.json().error.message.startsWith(field)).toBe(true);
    expect(await store.listInstances()).toEqual([]);
  });

  it('answers a check with a NUL in matchedGeoGroup with 400', async () => {
    const { app } = await buildApp();
    const payload = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: 'eea\u0000' };
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: JSON.stringify(payload),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^matchedGeoGroup: expected /);
  });

  it('answers an admin query with a NUL with 400 naming it', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/admin/api/instances/site/users?pageUserId=a%00b', headers: bearer });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^pageUserId: expected a string of 1-200 characters, got "a.b"/s);
  });

  it.each(['constructor', '__proto__', 'toString'])(
    'answers a check for group %s with a boolean consentRequired',
    async (group) => {
      const { app } = await buildApp();
      const payload = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: group };
      const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload });
      expect(response.statusCode).toBe(200);
      expect(response.json().consentRequired).toBe(true);
    },
  );
});
