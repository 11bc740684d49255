// @vitest-environment happy-dom
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FRAME_LISTENER_LIMIT } from '../../../src/consent/api-bounds.ts';
import { takeOverBridges } from '../../../src/consent/api-guard.ts';

type Reply = { callId: number; success: boolean; returnValue: unknown };
const report = vi.fn();
/** The GPP library as the bridge sees it: listeners get ids at once; `getSection` waits for `answer()`. */
const waiting: (() => void)[] = [];
let nextId = 0;

/** A frame inside the page that keeps the replies it is posted. */
function childFrame() {
  const replies: Reply[] = [];
  const frame = { parent: self, postMessage: (message: { __gppReturn: Reply }) => replies.push(message.__gppReturn) };
  return { frame, replies };
}

function call(frame: object, command: string, callId: number, parameter?: unknown) {
  const event = new Event('message') as MessageEvent;
  Object.defineProperties(event, {
    data: { value: { __gppCall: { command, callId, parameter, version: '1.1' } } },
    source: { value: frame },
  });
  dispatchEvent(event);
}

beforeAll(() => {
  (self as unknown as { __gpp: Function }).__gpp = (
    command: string,
    callback: (value: unknown, success: boolean) => void,
    parameter: unknown,
  ) => {
    if (command === 'addEventListener') callback({ eventName: 'listenerRegistered', listenerId: nextId++ }, true);
    else if (command === 'ping') callback({ cmpStatus: 'loaded' }, true);
    else if (command === 'removeEventListener')
      callback({ eventName: 'listenerRemoved', data: true, listenerId: parameter }, true);
    else waiting.push(() => callback('section', true));
  };
  takeOverBridges(report);
});

describe('takeOverBridges', () => {
  it("registers a frame's listeners up to the bound, refuses the rest with success false, and reports once", () => {
    const { frame, replies } = childFrame();
    for (let n = 0; n < FRAME_LISTENER_LIMIT + 100; n++) call(frame, 'addEventListener', n);
    expect(replies.filter((reply) => reply.success)).toHaveLength(FRAME_LISTENER_LIMIT);
    expect(replies.slice(FRAME_LISTENER_LIMIT).every((reply) => !reply.success && reply.returnValue === null)).toBe(
      true,
    );
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]![0]).toMatchObject({
      code: 'consent-frame-listeners-exceeded',
      got: String(FRAME_LISTENER_LIMIT + 1),
    });
    // Another frame has its own bound.
    const other = childFrame();
    call(other.frame, 'addEventListener', 0);
    expect(other.replies[0]!.success).toBe(true);
    expect(report).toHaveBeenCalledTimes(1);
  });

  it("frees a place when the frame removes one of its listeners, not another frame's", () => {
    const { frame, replies } = childFrame();
    for (let n = 0; n < FRAME_LISTENER_LIMIT; n++) call(frame, 'addEventListener', n);
    const id = (replies[0]!.returnValue as { listenerId: number }).listenerId;
    const stranger = childFrame();
    call(stranger.frame, 'removeEventListener', 1, id);
    expect(stranger.replies[0]).toMatchObject({ success: false });
    call(frame, 'addEventListener', 100);
    expect(replies.at(-1)!.success).toBe(false);
    call(frame, 'removeEventListener', 101, id);
    call(frame, 'addEventListener', 102);
    expect(replies.at(-1)).toMatchObject({ callId: 102, success: true });
  });

  it('counts a call that waits for its answer until it is answered', () => {
    const { frame, replies } = childFrame();
    for (let n = 0; n < FRAME_LISTENER_LIMIT; n++) call(frame, 'getSection', n, 'usnat');
    call(frame, 'getSection', 100, 'usnat');
    expect(replies).toEqual([expect.objectContaining({ callId: 100, success: false })]);
    for (const answer of waiting.splice(0)) answer();
    call(frame, 'ping', 101);
    call(frame, 'hasSection', 102, 'usnat');
    // The answered calls freed their places: the new one waits instead of being refused.
    expect(replies.filter((reply) => reply.success)).toHaveLength(FRAME_LISTENER_LIMIT + 1);
    expect(replies.some((reply) => reply.callId === 102)).toBe(false);
    expect(waiting).toHaveLength(1);
  });
});
