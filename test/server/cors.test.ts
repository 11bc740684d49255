import { describe, expect, it } from 'vitest';
import { parseAllowedOrigins } from '../../server/cors.ts';
import { ConfigError } from '../../server/errors.ts';
import { buildApp, json, pageOrigin } from './app-harness.ts';

const body = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null };

describe('cors', () => {
  describe.each(['/consent/check', '/consent/update'])('%s', (url) => {
    const payload = url === '/consent/update' ? { ...body, pageUserId: 'p' } : body;

    it('answers an allowed origin with that origin and credentials', async () => {
      const { app } = await buildApp();
      const response = await app.inject({ method: 'POST', url, headers: { ...json, origin: pageOrigin }, payload });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(pageOrigin);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(response.headers.vary).toContain('Origin');
    });

    it('refuses an unknown origin with 403, no CORS headers, and writes nothing', async () => {
      const { app, store } = await buildApp();
      const response = await app.inject({
        method: 'POST',
        url,
        headers: { ...json, origin: 'https://evil.example' },
        payload,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('origin-not-allowed');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      expect(await store.listInstances()).toEqual([]);
    });

    it('refuses an origin that only resembles an allowed one', async () => {
      const { app } = await buildApp();
      for (const origin of [`${pageOrigin}.evil.example`, 'http://news.example', `${pageOrigin}:444`, 'null']) {
        const response = await app.inject({ method: 'POST', url, headers: { ...json, origin }, payload });
        expect(response.statusCode, origin).toBe(403);
      }
    });

    it('serves a request without Origin without CORS headers', async () => {
      const { app } = await buildApp();
      const response = await app.inject({ method: 'POST', url, headers: json, payload });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('treats the server own origin as allowed', async () => {
      const { app } = await buildApp();
      const headers = { ...json, host: 'localhost:9999', origin: 'http://localhost:9999' };
      const response = await app.inject({ method: 'POST', url, headers, payload });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:9999');
    });

    it('answers a preflight from an allowed origin', async () => {
      const { app } = await buildApp();
      const response = await app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: pageOrigin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(response.statusCode).toBe(204);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': pageOrigin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'Content-Type',
        'access-control-max-age': '600',
      });
    });

    it('refuses a preflight from an unknown origin', async () => {
      const { app } = await buildApp();
      const response = await app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  it('opens the ads config to every origin without credentials', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/ads/config?client=demo', headers: { origin: 'https://any.example' } });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/ads/config',
      headers: { origin: 'https://any.example' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('opens the CDN scripts to every origin without credentials', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/v0.js', headers: { origin: 'https://any.example' } });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('parses ALLOWED_ORIGINS into canonical origins', () => {
    expect(parseAllowedOrigins(' https://a.example , http://localhost:8080/ ,')).toEqual([
      'https://a.example',
      'http://localhost:8080',
    ]);
  });

  it.each(['*', 'https://a.example/path', 'ftp://a.example', 'not a url'])('refuses %s in ALLOWED_ORIGINS', (entry) => {
    expect(() => parseAllowedOrigins(entry)).toThrow(ConfigError);
    expect(() => parseAllowedOrigins(entry)).toThrow(/allowed-origin-invalid/);
  });
});
