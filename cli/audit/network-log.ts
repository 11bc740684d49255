/**
 * Every request of a journey, read from the Chrome DevTools Protocol because Playwright does not
 * expose initiators: URL, method, resource type, frame document, the initiator (the parser of a
 * document, or the scripts on the stack, async parents included), the `Set-Cookie` lines of its
 * response the browser stored and those it refused with Chromium's reasons, and which requests
 * are still in flight (the settle wait, settle.ts).
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
  /** The `Set-Cookie` lines of the response that the browser stored. */
  readonly setCookies: string[];
  /** The `Set-Cookie` lines of the response that the browser refused, each with Chromium's reasons. */
  readonly refusedCookies: RefusedCookieLine[];
  responseTime?: number;
};

export type RefusedCookieLine = {
  readonly line: string;
  /** Chromium's `blockedReasons` (`SameSiteNoneInsecure`, `SecureOnly`, `UserPreferences`, ...). */
  readonly reasons: readonly string[];
};

/** A response's refused lines kept at most (a page controls its headers; Chromium bounds their size). */
export const MAX_REFUSED_LINES = 50;
/** A refused line is kept up to this many characters (Chromium refuses a longer name and value anyway). */
export const MAX_REFUSED_LINE_CHARS = 4_096;
const MAX_REASONS = 16;

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

type Answered = { requestId: string; timestamp: number; type?: string; frameId?: string };

type ExtraInfo = { requestId: string; headers: Record<string, string>; blockedCookies?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The lines of `Network.responseReceivedExtraInfo`'s `blockedCookies` (an array of `{ cookieLine:
 * string, blockedReasons: string[] }`): every line, for telling the stored lines apart, and the
 * refused lines kept for the report, bounded by `MAX_REFUSED_LINES` and `MAX_REFUSED_LINE_CHARS`.
 * An entry of another shape is left out.
 */
export function readBlockedCookies(value: unknown): {
  readonly lines: ReadonlySet<string>;
  readonly refused: RefusedCookieLine[];
} {
  const lines = new Set<string>();
  const refused: RefusedCookieLine[] = [];
  if (!Array.isArray(value)) return { lines, refused };
  for (const entry of value as unknown[]) {
    if (!isRecord(entry) || typeof entry.cookieLine !== 'string' || !Array.isArray(entry.blockedReasons)) continue;
    const reasons = (entry.blockedReasons as unknown[])
      .filter((reason): reason is string => typeof reason === 'string')
      .slice(0, MAX_REASONS);
    lines.add(entry.cookieLine);
    if (entry.cookieLine.length > 0 && refused.length < MAX_REFUSED_LINES)
      refused.push({ line: entry.cookieLine.slice(0, MAX_REFUSED_LINE_CHARS), reasons });
  }
  return { lines, refused };
}

function readInitiator(initiator: CdpInitiator | undefined): Initiator {
  const urls: string[] = [];
  for (let stack = initiator?.stack; stack; stack = stack.parent)
    for (const frame of stack.callFrames ?? []) if (frame.url) urls.push(frame.url);
  if (initiator?.url && !urls.length) urls.push(initiator.url);
  return { type: initiator?.type ?? 'other', urls };
}

export type NetworkLog = {
  readonly requests: LoggedRequest[];
  /** Requests started and not yet finished or failed. */
  readonly inFlight: ReadonlySet<string>;
  /** Epoch ms of the latest request start or end. */
  lastActivity(): number;
  /** Counts another session's requests here too, under keys of its own (a frame's: `parent` below). */
  readonly track: Tracker;
  /** Its session is gone (a removed frame): what it had in flight will never end, here or in `parent`. */
  close(): void;
};

/** Marks requests started and ended in a log's in-flight set and activity time. */
export type Tracker = { start(key: string): void; end(key: string): void };

/** Tells the parent log's trackers apart: request ids of two sessions may be equal. */
let sessions = 0;

export type NetworkLogOptions = {
  /** The list to log into (shared by the sessions of one journey). */
  readonly requests?: LoggedRequest[];
  /** Adds an entry to `requests`; false when it was not added (the list is full). */
  readonly add?: (entry: LoggedRequest) => boolean;
  /**
   * The page's log, which then counts this session's requests in flight too: a frame in a process
   * of its own (journey.ts) is still loading while they are, and the settle wait waits for it.
   */
  readonly parent?: Tracker;
};

/** Logs the requests `session` sees; a cross-site frame has a session of its own (journey.ts). */
export async function startNetworkLog(session: CDPSession, options: NetworkLogOptions = {}): Promise<NetworkLog> {
  const requests = options.requests ?? [];
  const add = options.add ?? ((entry: LoggedRequest) => requests.push(entry) > 0);
  const latest = new Map<string, LoggedRequest>();
  const clockOffset = new Map<string, number>();
  const inFlight = new Set<string>();
  let activity = Date.now();
  const track: Tracker = {
    start(key) {
      inFlight.add(key);
      activity = Date.now();
    },
    end(key) {
      inFlight.delete(key);
      activity = Date.now();
    },
  };
  const sessionKey = `s${++sessions}:`;
  // The frame this session renders; unknown (no frame tree), every document waits for its end here.
  const topFrameId = await session
    .send('Page.getFrameTree')
    .then((tree) => tree.frameTree.frame.id)
    .catch(() => undefined);
  const end = ({ requestId }: { requestId: string }) => {
    track.end(requestId);
    options.parent?.end(sessionKey + requestId);
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
      refusedCookies: [],
    };
    if (!add(entry)) return;
    clockOffset.set(event.requestId, event.wallTime - event.timestamp);
    latest.set(event.requestId, entry);
    track.start(event.requestId);
    options.parent?.start(sessionKey + event.requestId);
  });
  // A frame's document answered here may render in a process of its own (a cross-site or sandboxed
  // frame under site isolation): its end is then reported only to that frame's session, so here it
  // counts as done at its response, and the frame's session logs what the frame loads.
  session.on('Network.responseReceived', ({ requestId, timestamp, type, frameId }: Answered) => {
    const entry = latest.get(requestId);
    if (entry) entry.responseTime = (timestamp + (clockOffset.get(requestId) ?? 0)) * 1000;
    if (type === 'Document' && topFrameId !== undefined && frameId !== undefined && frameId !== topFrameId)
      end({ requestId });
  });
  // Lines the browser refused to store (a cross-site SameSite=Lax cookie, say) set nothing: they are kept apart, with the reasons.
  session.on('Network.responseReceivedExtraInfo', ({ requestId, headers, blockedCookies }: ExtraInfo) => {
    const entry = latest.get(requestId);
    if (!entry) return;
    const blocked = readBlockedCookies(blockedCookies);
    const lines = Object.entries(headers).flatMap(([name, value]) =>
      name.toLowerCase() === 'set-cookie' && typeof value === 'string' ? value.split('\n') : [],
    );
    entry.setCookies.push(...lines.filter((line) => line.length > 0 && !blocked.lines.has(line)));
    entry.refusedCookies.push(...blocked.refused.slice(0, MAX_REFUSED_LINES - entry.refusedCookies.length));
  });
  session.on('Network.loadingFinished', end);
  session.on('Network.loadingFailed', end);
  await session.send('Network.enable');
  // Async stacks need the debugger; it must never stop on a `debugger;` statement of the page.
  await session.send('Debugger.enable');
  await session.send('Debugger.setSkipAllPauses', { skip: true });
  await session.send('Debugger.setAsyncCallStackDepth', { maxDepth: 16 });
  const close = () => {
    for (const requestId of [...inFlight]) end({ requestId });
  };
  return { requests, inFlight, lastActivity: () => activity, track, close };
}
