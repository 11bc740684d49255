// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  admitStubCall,
  copyOfMessage,
  FRAME_LISTENER_LIMIT,
  FRAME_MESSAGE_LIMIT,
  isDescendant,
  queueStub,
  STUB_QUEUE_LIMIT,
} from '../../../src/consent/api-bounds.ts';

/** A window of another page: its own top. */
const topOf = () => {
  const other: { parent?: unknown } = {};
  other.parent = other;
  return other;
};

describe('isDescendant', () => {
  it('accepts a child frame and a frame nested deeper', () => {
    const child = { parent: self };
    expect(isDescendant(child)).toBe(true);
    expect(isDescendant({ parent: { parent: child } })).toBe(true);
  });

  it('refuses a parent or an opener of another page, a frame of another page, this window and no window', () => {
    const parent = topOf();
    expect(isDescendant(parent)).toBe(false);
    expect(isDescendant({ parent })).toBe(false);
    expect(isDescendant(self)).toBe(false);
    expect(isDescendant(null)).toBe(false);
    expect(isDescendant({})).toBe(false);
  });
});

describe('copyOfMessage', () => {
  it('parses text and copies an object, keeping nothing of the message', () => {
    const call = { __tcfapiCall: { command: 'ping', callId: 1 } };
    expect(copyOfMessage(JSON.stringify(call))).toEqual(call);
    const copy = copyOfMessage(call) as typeof call;
    expect(copy).toEqual(call);
    expect(copy.__tcfapiCall).not.toBe(call.__tcfapiCall);
    expect(copyOfMessage({ __tcfapiCall: { parameter: new Map([[1, 'x'.repeat(1e6)]]) } })).toEqual({
      __tcfapiCall: { parameter: {} },
    });
  });

  it('reads nothing of a message longer than the bound, as text or as an object', () => {
    const big = 'x'.repeat(FRAME_MESSAGE_LIMIT);
    expect(copyOfMessage(big)).toBeUndefined();
    expect(copyOfMessage({ __gppCall: { parameter: big } })).toBeUndefined();
    expect(copyOfMessage({ __gppCall: { parameter: 'x'.repeat(FRAME_MESSAGE_LIMIT - 30) } })).toBeDefined();
  });

  it('stops early in a typed array of ten million numbers', () => {
    const start = performance.now();
    expect(copyOfMessage({ __tcfapiCall: { parameter: new Uint8Array(1e7) } })).toBeUndefined();
    expect(performance.now() - start).toBeLessThan(100);
  });

  it('reads nothing of text that is not JSON, or of a value JSON cannot hold', () => {
    expect(copyOfMessage('{"__tcfapiCall":')).toBeUndefined();
    expect(copyOfMessage({ __tcfapiCall: { callId: 1n } })).toBeUndefined();
    expect(copyOfMessage(undefined)).toBeUndefined();
  });
});

describe('queueStub', () => {
  it('answers ping at once and keeps other calls in order, up to the bound', () => {
    const stub = queueStub(2, () => ({ cmpStatus: 'stub' }));
    const ping = vi.fn();
    stub('ping', 2, ping);
    expect(ping).toHaveBeenCalledWith({ cmpStatus: 'stub' }, true);
    const callbacks = Array.from({ length: STUB_QUEUE_LIMIT + 2 }, () => vi.fn());
    for (const [index, callback] of callbacks.entries()) stub('getTCData', 2, callback, index);
    const queue = stub() as unknown[][];
    expect(queue.map((args) => args[3])).toEqual(Array.from({ length: STUB_QUEUE_LIMIT }, (_, index) => index));
    expect(callbacks.slice(0, STUB_QUEUE_LIMIT).every((callback) => callback.mock.calls.length === 0)).toBe(true);
    for (const refused of callbacks.slice(STUB_QUEUE_LIMIT)) expect(refused).toHaveBeenCalledWith(null, false);
  });

  it('drops a call without a callback, and queues ping when it has no answer of its own', () => {
    const stub = queueStub(2);
    stub('getUSPData', 1);
    stub('ping', 1, () => {});
    expect((stub() as unknown[][]).map((args) => args[0])).toEqual(['ping']);
  });
});

describe('admitStubCall', () => {
  it('refuses removals: a stub does not know whose a listener is', () => {
    expect(admitStubCall({ command: 'removeEventListener', parameter: 1 }, {}, new WeakMap())).toBe(false);
  });

  it("queues a frame's listeners up to the bound, then nothing more of that frame; other frames keep theirs", () => {
    const listeners = new WeakMap<object, number>();
    const [flood, other] = [{}, {}];
    const admitted = Array.from({ length: FRAME_LISTENER_LIMIT + 5 }, () =>
      admitStubCall({ command: 'addEventListener' }, flood, listeners),
    );
    expect(admitted.filter(Boolean)).toHaveLength(FRAME_LISTENER_LIMIT);
    expect(admitted.slice(FRAME_LISTENER_LIMIT).some(Boolean)).toBe(false);
    expect(admitStubCall({ command: 'getTCData' }, flood, listeners)).toBe(false);
    expect(admitStubCall({ command: 'addEventListener' }, other, listeners)).toBe(true);
    expect(admitStubCall({ command: 'getTCData' }, other, listeners)).toBe(true);
  });
});
