/** Types of consent-breakdown.mjs, for its unit test. */
import type { PathSummary } from '../lib/critical-path.mjs';

export const CACHE_STATES: readonly ['warm', 'cold'];
export const SAMPLING_INTERVAL_US: number;
export function formatTopTimes(entries: readonly [string, number][], shown?: number): string;
export function formatCriticalPath(summary: PathSummary | null): string;
export type Table = { title: string; columns: string[]; rows: string[][]; notes: string[] };
export function buildBreakdownTables(profileName: string, runsOf: Record<string, readonly unknown[]>): Table[];
