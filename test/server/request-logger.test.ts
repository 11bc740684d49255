import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLogger } from '../../server/request-logger.ts';
import { buildApp } from './app-harness.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), stream, lines };
}

const make = (parent: pino.Logger, reqId: string, options = {}) =>
  lazyChildLogger.call(null as never, parent, { reqId }, options, {} as never) as unknown as pino.Logger;

describe('lazy request logger', () => {
  it('makes no child for calls at disabled levels, one child on the first enabled call', () => {
    const { logger, lines } = capture('warn');
    const child = vi.spyOn(logger, 'child');
    const log = make(logger, 'r1');
    log.info('quiet');
    log.debug('quiet');
    expect(child).not.toHaveBeenCalled();
    log.warn('first');
    log.error({ code: 'x' }, 'second');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map(({ reqId, msg, level }) => ({ reqId, msg, level }))).toEqual([
      { reqId: 'r1', msg: 'first', level: 40 },
      { reqId: 'r1', msg: 'second', level: 50 },
    ]);
  });

  it('keeps the request id on its own children and apart between requests', () => {
    const { logger, lines } = capture('info');
    make(logger, 'a').child({ part: 'store' }).info('one');
    make(logger, 'b').info('two');
    expect(lines.map(({ reqId, part, msg }) => ({ reqId, part, msg }))).toEqual([
      { reqId: 'a', part: 'store', msg: 'one' },
      { reqId: 'b', part: undefined, msg: 'two' },
    ]);
  });

  it('gives a route with its own level a real child at once', () => {
    const { logger, lines } = capture('warn');
    const log = make(logger, 'r2', { level: 'debug' });
    log.debug('shown');
    expect(lines).toMatchObject([{ reqId: 'r2', msg: 'shown' }]);
  });

  it('is what the app logs requests with: their lines carry the request id', async () => {
    const { stream, lines } = capture('info');
    const { app } = await buildApp({ logger: { level: 'info', stream } });
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-7' },
      payload: '{',
    });
    expect(response.statusCode).toBe(400);
    const ofRequest = lines.filter((line) => line.reqId === 'trace-7');
    expect(ofRequest.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed']),
    );
  });
});
