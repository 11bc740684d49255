/**
 * The audit's network log decides when a page's network is quiet (the settle wait): a request is
 * in flight from its start to its end, except a frame's document, which may render in a process
 * of its own and then end only in that frame's session.
 */
import type { CDPSession } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startNetworkLog } from '../../../cli/audit/network-log.ts';

type Listener = (event: unknown) => void;

/** A CDP session that answers the calls the log makes and lets the test emit its events. */
function fakeSession(topFrameId: string | null) {
  const listeners = new Map<string, Listener[]>();
  const session = {
    on(name: string, listener: Listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return session;
    },
    async send(method: string) {
      if (method !== 'Page.getFrameTree') return {};
      if (topFrameId === null) throw new Error('no frame tree');
      return { frameTree: { frame: { id: topFrameId } } };
    },
  };
  const emit = (name: string, event: unknown) => {
    for (const listener of listeners.get(name) ?? []) listener(event);
  };
  return { session: session as unknown as CDPSession, emit };
}

const sent = (requestId: string, frameId: string, type: string) => ({
  requestId,
  frameId,
  type,
  request: { url: `https://publisher.example/${requestId}`, method: 'GET' },
  timestamp: 1,
  wallTime: 1_700_000_000,
});

describe('the audit network log', () => {
  it('counts a frame document done at its response, the top document and other requests at their end', async () => {
    const { session, emit } = fakeSession('top');
    const log = await startNetworkLog(session);
    emit('Network.requestWillBeSent', sent('page', 'top', 'Document'));
    emit('Network.requestWillBeSent', sent('prompt', 'frame', 'Document'));
    emit('Network.requestWillBeSent', sent('script', 'frame', 'Script'));
    for (const requestId of ['page', 'prompt', 'script'])
      emit('Network.responseReceived', {
        requestId,
        timestamp: 2,
        type: requestId === 'script' ? 'Script' : 'Document',
        frameId: requestId === 'page' ? 'top' : 'frame',
      });
    expect([...log.inFlight].sort()).toEqual(['page', 'script']);
    emit('Network.loadingFinished', { requestId: 'page' });
    emit('Network.loadingFailed', { requestId: 'script' });
    expect(log.inFlight.size).toBe(0);
    expect(log.requests.map((request) => request.responseTime)).toEqual([
      1_700_000_001_000, 1_700_000_001_000, 1_700_000_001_000,
    ]);
  });

  it('waits for the end of every document when the session has no frame tree', async () => {
    const { session, emit } = fakeSession(null);
    const log = await startNetworkLog(session);
    emit('Network.requestWillBeSent', sent('prompt', 'frame', 'Document'));
    emit('Network.responseReceived', { requestId: 'prompt', timestamp: 2, type: 'Document', frameId: 'frame' });
    expect([...log.inFlight]).toEqual(['prompt']);
  });

  it("counts a frame session's requests in flight in the page's log until they end", async () => {
    const page = fakeSession('top');
    const frame = fakeSession('frame');
    const log = await startNetworkLog(page.session);
    const frameLog = await startNetworkLog(frame.session, { parent: log.track });
    // Both sessions may use the same request id.
    page.emit('Network.requestWillBeSent', sent('1', 'top', 'Script'));
    frame.emit('Network.requestWillBeSent', sent('1', 'frame', 'XHR'));
    expect(log.inFlight.size).toBe(2);
    page.emit('Network.loadingFinished', { requestId: '1' });
    expect(log.inFlight.size).toBe(1);
    frame.emit('Network.loadingFinished', { requestId: '1' });
    expect(log.inFlight.size).toBe(0);
    // A removed frame's session reports no end: closing its log stops counting what it had in flight.
    frame.emit('Network.requestWillBeSent', sent('2', 'frame', 'Ping'));
    expect(log.inFlight.size).toBe(1);
    frameLog.close();
    expect(log.inFlight.size).toBe(0);
  });
});
