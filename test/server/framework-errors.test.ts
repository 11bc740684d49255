import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toHttpError } from '../../server/framework-errors.ts';
import { buildApp, json } from './app-harness.ts';

const check = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null };

/** Writes raw bytes to a listening app and reads the whole answer. */
async function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('framework-errors', () => {
  it('answers a percent-encoded percent under /examples/ with 404 not-found, not 500', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/examples/%25' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not-found');
  });

  it('decodes example paths once', async () => {
    const { app, dir } = await buildApp();
    writeFileSync(join(dir, 'examples/100%.html'), '<title>full</title>');
    const response = await app.inject({ url: '/examples/100%25.html' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('full');
  });

  it.each(['/examples/%E0%A4%A', '/v0/%E0%A4%A.js', '/nowhere/%zz'])(
    'answers the malformed encoding %s with 400 invalid-url',
    async (url) => {
      const { app } = await buildApp();
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: { code: 'invalid-url', message: expect.stringMatching(/^URL: expected/) },
      });
      expect(response.headers['x-request-id']).toBeDefined();
    },
  );

  it('answers an over-long path parameter with 414 bad-request in the envelope', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: `/v0/${'a'.repeat(120)}.js` });
    expect(response.statusCode).toBe(414);
    expect(response.json().error.code).toBe('bad-request');
  });

  it('answers an empty JSON body with 400 invalid-json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid-json');
  });

  it.each([
    ['a "__proto__" key', '{"consentInstanceId":"site","consentStateValue":"unknown","__proto__":{"x":1}}'],
    ['an escaped "__proto__" key', '{"consentInstanceId":"site","consentStateValue":"unknown","\\u005f_proto__":{}}'],
    [
      'a nested "__proto__" key',
      '{"consentInstanceId":"site","consentStateValue":"unknown","purposeConsents":{"__proto__":true}}',
    ],
    [
      '"constructor" with "prototype"',
      '{"consentInstanceId":"site","consentStateValue":"unknown","constructor":{"prototype":{}}}',
    ],
  ])(
    'answers valid JSON with %s with 400 invalid-json naming the problem, and writes nothing',
    async (_name, payload) => {
      const { app, store } = await buildApp();
      expect(() => JSON.parse(payload)).not.toThrow();
      const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: 'invalid-json',
        message: 'body: expected JSON without a "__proto__" key or a "constructor" key holding "prototype", got one',
      });
      expect(await store.listInstances()).toEqual([]);
    },
  );

  it('still names invalid JSON as invalid JSON', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: '{"__proto__":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid-json',
      message: expect.stringMatching(/^body: expected valid JSON/),
    });
  });

  it('answers a request Node cannot parse with 400 bad-request in the envelope', async () => {
    const { app } = await buildApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answer = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      error: { code: 'bad-request', message: 'malformed HTTP request (Bad Request)' },
    });
  });

  it('maps framework errors by code and leaves unknown errors to the 500 path', () => {
    expect(toHttpError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', message: 'x' }, 10)).toMatchObject({
      status: 400,
      code: 'unsupported-media-type',
    });
    expect(toHttpError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', message: 'x' }, 10)).toMatchObject({
      status: 413,
      code: 'body-too-large',
      message: 'body: expected at most 10 bytes, got more',
    });
    expect(toHttpError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', message: 'x', statusCode: 400 }, 10)?.code).toBe(
      'invalid-json',
    );
    expect(toHttpError({ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', message: 'x', statusCode: 400 }, 10)?.code).toBe(
      'bad-request',
    );
    expect(toHttpError(new URIError('URI malformed'), 10)?.code).toBe('invalid-url');
    expect(toHttpError({ code: 'FST_ERR_SOMETHING', message: 'x', statusCode: 500 }, 10)).toBeNull();
    expect(toHttpError({ statusCode: 400, message: 'not ours' }, 10)).toBeNull();
    expect(toHttpError(new Error('boom'), 10)).toBeNull();
  });

  it('still answers valid requests normally', async () => {
    const { app } = await buildApp();
    expect(
      (await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check })).statusCode,
    ).toBe(200);
  });
});
