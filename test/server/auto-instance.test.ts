import { describe, expect, it } from 'vitest';
import { bearer, buildApp, json } from './app-harness.ts';

const check = (id: string) => ({ consentInstanceId: id, consentStateValue: 'unknown', matchedGeoGroup: null });
const update = (id: string) => ({ consentInstanceId: id, pageUserId: 'page-1', consentStateValue: 'accepted' });

describe('auto-instance', () => {
  it('answers 403 instance-cap-reached beyond MAX_AUTO_INSTANCES and writes nothing', async () => {
    const { app, store } = await buildApp({ maxAutoInstances: 2 });
    for (const id of ['a', 'b']) {
      expect(
        (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check(id) })).statusCode,
      ).toBe(200);
    }
    const refusedCheck = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: check('c'),
    });
    expect(refusedCheck.statusCode).toBe(403);
    expect(refusedCheck.json().error.code).toBe('instance-cap-reached');
    expect(refusedCheck.json().error.message).toMatch(
      /^consentInstanceId: no instance "c", and MAX_AUTO_INSTANCES \(2\) instances/,
    );
    const refusedUpdate = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: update('c'),
    });
    expect(refusedUpdate.statusCode).toBe(403);
    expect(refusedUpdate.json().error.code).toBe('instance-cap-reached');
    expect(await store.getInstance('c')).toBeNull();
    expect(await store.listAuditEntries('c', 0, 10)).toEqual([]);
    expect((await store.listInstances()).map((instance) => instance.id)).toEqual(['a', 'b']);
  });

  it('keeps serving existing instances at the cap', async () => {
    const { app } = await buildApp({ maxAutoInstances: 1 });
    await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check('a') });
    const recorded = await app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: update('a') });
    expect(recorded.json()).toEqual({ recorded: true, policyVersion: 1, receiptId: expect.stringMatching(/^rcpt_/) });
  });

  it('lets the admin API create instances at the cap, and a configured instance stops counting', async () => {
    const { app } = await buildApp({ maxAutoInstances: 1 });
    await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check('a') });
    const put = (id: string) =>
      app.inject({
        method: 'PUT',
        url: `/admin/api/instances/${id}`,
        headers: { ...bearer, ...json },
        payload: { consentRequired: false },
      });
    expect((await put('configured')).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check('b') })).statusCode,
    ).toBe(403);
    expect((await put('a')).statusCode).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check('b') })).statusCode,
    ).toBe(200);
  });
});
