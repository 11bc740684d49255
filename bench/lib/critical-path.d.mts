/** Types of critical-path.mjs, for its unit test. */
export type CallFrame = { readonly url: string; readonly functionName?: string; readonly lineNumber?: number; readonly columnNumber?: number };
export type StackTrace = { readonly callFrames: readonly CallFrame[]; readonly parent?: StackTrace };
/** CDP Network.Initiator, the fields read. */
export type Initiator = { readonly type: string; readonly url?: string; readonly stack?: StackTrace };
/** A request as browser/request-log.mjs records it (CDP seconds). */
export type RecordedRequest = {
  readonly url: string;
  readonly type: string;
  readonly initiator: Initiator;
  readonly sentAt: number;
  readonly wallTime: number;
  readonly finishedAt: number | null;
  readonly status: number | null;
  readonly fromCache: boolean;
  readonly fromPrefetchCache: boolean;
  readonly failed: boolean;
};
export type Source = 'failed' | 'prefetch' | 'cache' | '304' | 'network';
export type TimedRequest = {
  readonly url: string;
  readonly parentUrl: string | null;
  readonly via: string;
  readonly startMs: number | null;
  readonly endMs: number | null;
  readonly source: Source;
};
export type PathSummary = {
  readonly steps: readonly { url: string; via: string; startMs: number | null; endMs: number | null; source: Source }[];
  readonly runs: number;
  readonly of: number;
};
export function initiatorUrlOf(initiator: Initiator | undefined): string | null;
export function sourceOf(request: Pick<RecordedRequest, 'failed' | 'fromPrefetchCache' | 'fromCache' | 'status'>): Source;
export function readRequests(requests: readonly RecordedRequest[], timeOrigin: number): TimedRequest[];
export function buildCriticalPath(requests: readonly TimedRequest[], targetUrl: string): TimedRequest[];
export function summarizeCriticalPaths(paths: readonly (readonly TimedRequest[])[]): PathSummary | null;
