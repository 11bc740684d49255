import { describe, expect, it, vi } from 'vitest';
import { healthPingTimeoutMs } from '../../server/routes/health.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { buildApp } from './app-harness.ts';

describe('app', () => {
  it('answers /healthz with the store kind', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', store: 'memory' });
  });

  it('answers /healthz with 503 store-unavailable when the store fails', async () => {
    const store = { ...createMemoryStore(), ping: async () => Promise.reject(new Error('down')) };
    const { app } = await buildApp({ store });
    const response = await app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe('store-unavailable');
  });

  it('answers /healthz with 503 store-unavailable when the health time-out fires before the store answers', async () => {
    let pings = 0;
    const ping = () => {
      pings++;
      return new Promise<void>(() => {});
    };
    const store = { ...createMemoryStore(), ping };
    const { app } = await buildApp({ store, healthTimeoutMs: 60_000 });
    await app.ready();
    // The time-out's clock moves only when the test moves it: the answer waits for it, however fast the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let answered = false;
      const responding = app.inject({ url: '/healthz' }).then((response) => {
        answered = true;
        return response;
      });
      while (pings === 0) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const response = await responding;
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toEqual({
        code: 'store-unavailable',
        message: 'the memory store does not answer within 60000 ms',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits healthPingTimeoutMs by default, a few seconds', () => {
    expect(healthPingTimeoutMs).toBeGreaterThanOrEqual(1000);
    expect(healthPingTimeoutMs).toBeLessThanOrEqual(5000);
  });
  it('answers unknown routes with 404 not-found in the JSON envelope', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/nowhere?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not-found', message: 'no route GET /nowhere' } });
  });

  it('answers a store failure with 500 internal-error naming the request id, without details', async () => {
    const store = { ...createMemoryStore(), ensureInstance: async () => Promise.reject(new Error('disk on fire')) };
    const { app } = await buildApp({ store });
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
      payload: { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { code: 'internal-error', message: 'internal error (request req-42)' } });
    expect(response.headers['x-request-id']).toBe('req-42');
  });

  it('gives every response a request id and nosniff', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/healthz' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
