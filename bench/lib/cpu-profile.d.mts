/** Types of cpu-profile.mjs, for its unit test. */
export type CallFrame = { readonly url: string; readonly functionName: string; readonly lineNumber: number; readonly columnNumber: number };
/** A CDP Profiler.Profile, the fields read. */
export type Profile = {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame; readonly children?: readonly number[] }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
};
export type MainThreadTime = { scriptMs: number; programMs: number; byFile: Record<string, number>; byFunction: Record<string, number> };
export const WITHOUT_URL: string;
export function fileOf(url: string): string;
export function describeFrame(callFrame: CallFrame): string;
export function mainThreadTime(profile: Profile, options?: { describe?: (callFrame: CallFrame) => string }): MainThreadTime;
export function medianByKey(tables: readonly Record<string, number>[]): [string, number][];
export function addSelfTimes(selfMs: Map<string, number>, profile: Profile, options: { runs: number; withoutUrl: boolean }): number;
export function printSelfTimes(selfMs: Map<string, number>, options: { scripts: number; functions: number }): void;
