/**
 * Every request of a journey, read from the Chrome DevTools Protocol because Playwright does not
 * expose initiators: URL, method, resource type, frame document, the initiator (the parser of a
 * document, or the scripts on the stack, async parents included), the `Set-Cookie` lines of its
 * response, and which requests are still in flight (the settle wait, settle.ts).
 */
import type { CDPSession } from 'playwright-core';

export type Initiator = {
  readonly type: string;
  /** The document whose parser made the request, or the scripts on the stack, innermost first. */
  readonly urls: readonly string[];
};

export type LoggedRequest = {
  readonly id: string;
  readonly url: string;
  readonly method: string;
  readonly type: string;
  /** Epoch milliseconds. */
  readonly time: number;
  readonly documentUrl: string;
  readonly initiator: Initiator;
  readonly setCookies: string[];
  responseTime?: number;
};

type StackTrace = { callFrames?: { url?: string }[]; parent?: StackTrace };
type CdpInitiator = { type?: string; url?: string; stack?: StackTrace };
type WillBeSent = {
  requestId: string;
  documentURL?: string;
  request: { url: string; method: string };
  timestamp: number;
  wallTime: number;
  initiator?: CdpInitiator;
  type?: string;
};

type ExtraInfo = { requestId: string; headers: Record<string, string>; blockedCookies?: { cookieLine: string }[] };

function readInitiator(initiator: CdpInitiator | undefined): Initiator {
  const urls: string[] = [];
  for (let stack = initiator?.stack; stack; stack = stack.parent) for (const frame of stack.callFrames ?? []) if (frame.url) urls.push(frame.url);
  if (initiator?.url && !urls.length) urls.push(initiator.url);
  return { type: initiator?.type ?? 'other', urls };
}

export type NetworkLog = {
  readonly requests: LoggedRequest[];
  /** Requests started and not yet finished or failed. */
  readonly inFlight: ReadonlySet<string>;
  /** Epoch ms of the latest request start or end. */
  lastActivity(): number;
};

export type NetworkLogOptions = {
  /** The list to log into (shared by the sessions of one journey). */
  readonly requests?: LoggedRequest[];
  /** Adds an entry to `requests`; false when it was not added (the list is full). */
  readonly add?: (entry: LoggedRequest) => boolean;
};

/** Logs the requests `session` sees; a cross-site frame has a session of its own (journey.ts). */
export async function startNetworkLog(session: CDPSession, options: NetworkLogOptions = {}): Promise<NetworkLog> {
  const requests = options.requests ?? [];
  const add = options.add ?? ((entry: LoggedRequest) => requests.push(entry) > 0);
  const latest = new Map<string, LoggedRequest>();
  const clockOffset = new Map<string, number>();
  const inFlight = new Set<string>();
  let activity = Date.now();
  const end = ({ requestId }: { requestId: string }) => {
    inFlight.delete(requestId);
    activity = Date.now();
  };
  session.on('Network.requestWillBeSent', (event: WillBeSent) => {
    if (event.initiator?.type === 'preflight') return;
    const entry: LoggedRequest = {
      id: `${event.requestId}#${requests.length}`,
      url: event.request.url,
      method: event.request.method,
      type: event.type ?? 'Other',
      time: event.wallTime * 1000,
      documentUrl: event.documentURL ?? '',
      initiator: readInitiator(event.initiator),
      setCookies: [],
    };
    if (!add(entry)) return;
    clockOffset.set(event.requestId, event.wallTime - event.timestamp);
    latest.set(event.requestId, entry);
    inFlight.add(event.requestId);
    activity = Date.now();
  });
  session.on('Network.responseReceived', ({ requestId, timestamp }: { requestId: string; timestamp: number }) => {
    const entry = latest.get(requestId);
    if (entry) entry.responseTime = (timestamp + (clockOffset.get(requestId) ?? 0)) * 1000;
  });
  // Lines the browser refused to store (a cross-site SameSite=Lax cookie, say) set nothing.
  session.on('Network.responseReceivedExtraInfo', ({ requestId, headers, blockedCookies }: ExtraInfo) => {
    const entry = latest.get(requestId);
    const blocked = new Set((blockedCookies ?? []).map(({ cookieLine }) => cookieLine));
    const lines = Object.entries(headers).flatMap(([name, value]) => (name.toLowerCase() === 'set-cookie' ? value.split('\n') : []));
    entry?.setCookies.push(...lines.filter((line) => line && !blocked.has(line)));
  });
  session.on('Network.loadingFinished', end);
  session.on('Network.loadingFailed', end);
  await session.send('Network.enable');
  // Async stacks need the debugger; it must never stop on a `debugger;` statement of the page.
  await session.send('Debugger.enable');
  await session.send('Debugger.setSkipAllPauses', { skip: true });
  await session.send('Debugger.setAsyncCallStackDepth', { maxDepth: 16 });
  return { requests, inFlight, lastActivity: () => activity };
}
