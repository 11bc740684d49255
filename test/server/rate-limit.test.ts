import { describe, expect, it } from 'vitest';
import { buildApp, bearer, json } from './app-harness.ts';

const check = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null };
const update = { consentInstanceId: 'site', pageUserId: 'page-1', consentStateValue: 'accepted' };

describe('rate-limit', () => {
  it('answers 429 rate-limited with Retry-After once a client IP exceeds its budget on /consent/check', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 3 });
    const send = () => app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check });
    for (let i = 0; i < 3; i++) expect((await send()).statusCode).toBe(200);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      error: {
        code: 'rate-limited',
        message: expect.stringMatching(/^too many requests from this client: at most 3 per minute; retry in /),
      },
    });
  });

  it('limits /consent/update and /cmp/outcome and writes nothing when limited', async () => {
    const { app, store } = await buildApp({ rateLimitPerMinute: 2 });
    const sendUpdate = () => app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: update });
    await sendUpdate();
    await sendUpdate();
    expect((await sendUpdate()).statusCode).toBe(429);
    expect((await store.countInstance('site')).auditEntries).toBe(2);
    // Another client: the first one has spent its budget, which /cmp/outcome shares.
    const outcome = () =>
      app.inject({ method: 'POST', url: '/cmp/outcome?instance=site&action=accept', remoteAddress: '198.51.100.9' });
    expect((await outcome()).statusCode).toBe(204);
    expect((await outcome()).statusCode).toBe(204);
    expect((await outcome()).statusCode).toBe(429);
  });

  it('gives each client IP one budget shared by check, update, receipt and /cmp/outcome; CORS preflights do not count', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 4 });
    const preflight = { origin: 'https://news.example', 'access-control-request-method': 'POST' };
    const preflightTo = (url: string) => app.inject({ method: 'OPTIONS', url, headers: preflight });
    expect(
      (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: update })).statusCode,
    ).toBe(200);
    // A browser sends these before each cross-origin POST; they cost the server nothing to answer.
    for (let n = 0; n < 6; n++) expect((await preflightTo('/consent/update')).statusCode).toBe(204);
    expect((await app.inject({ method: 'POST', url: '/cmp/outcome?instance=site&action=accept' })).statusCode).toBe(
      204,
    );
    expect((await app.inject({ url: '/consent/receipt/rcpt_unknown' })).statusCode).not.toBe(429);
    // Four requests spent the budget of four, whichever routes they went to; a preflight still passes.
    const next = [
      app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check }),
      app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: update }),
      app.inject({ method: 'POST', url: '/cmp/outcome?instance=site&action=accept' }),
      app.inject({ url: '/consent/receipt/rcpt_unknown' }),
    ];
    expect((await preflightTo('/consent/check')).statusCode).toBe(204);
    for (const limited of await Promise.all(next)) {
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('rate-limited');
    }
    // Another client still has its own budget.
    const other = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: check,
      remoteAddress: '198.51.100.9',
    });
    expect(other.statusCode).toBe(200);
  });

  it('keeps the CORS headers on a 429 to an allowed origin', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 1 });
    const headers = { ...json, origin: 'https://news.example' };
    await app.inject({ method: 'POST', url: '/consent/check', headers, payload: check });
    const limited = await app.inject({ method: 'POST', url: '/consent/update', headers, payload: update });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['access-control-allow-origin']).toBe('https://news.example');
    expect(limited.headers['access-control-allow-credentials']).toBe('true');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts each client IP separately', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 1 });
    const send = (remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check, remoteAddress });
    expect((await send('203.0.113.7')).statusCode).toBe(200);
    expect((await send('203.0.113.7')).statusCode).toBe(429);
    expect((await send('198.51.100.9')).statusCode).toBe(200);
  });

  it('leaves the CDN, examples, healthz and admin routes unlimited', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 1 });
    for (const url of ['/healthz', '/v0.js', '/examples/first.html', '/admin/api/instances']) {
      for (let i = 0; i < 3; i++) expect((await app.inject({ url, headers: bearer })).statusCode).toBe(200);
    }
  });

  it('is disabled by a limit of 0', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 0 });
    for (let i = 0; i < 20; i++) {
      expect(
        (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check })).statusCode,
      ).toBe(200);
    }
  });
});
