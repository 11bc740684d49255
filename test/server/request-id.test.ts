import { describe, expect, it } from 'vitest';
import { isPlainRequestId } from '../../server/request-id.ts';
import { buildApp } from './app-harness.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request-id', () => {
  it('keeps a short plain X-Request-Id from the client', async () => {
    const { app } = await buildApp();
    for (const id of ['req-42', 'lb.trace:7_A', 'x'.repeat(64)]) {
      const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toBe(id);
    }
  });

  it('replaces a long or non-plain X-Request-Id with a fresh UUID', async () => {
    const { app } = await buildApp();
    for (const id of ['x'.repeat(65), 'a b', '{"level":60}', 'id\u00e9', '']) {
      const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
      expect(response.headers['x-request-id']).toMatch(uuid);
    }
  });

  it('accepts 1-64 of A-Z a-z 0-9 . _ : - only', () => {
    expect(isPlainRequestId('A.b_c:d-9')).toBe(true);
    expect(isPlainRequestId('a/b')).toBe(false);
    expect(isPlainRequestId(['a', 'b'])).toBe(false);
    expect(isPlainRequestId(undefined)).toBe(false);
  });
});
