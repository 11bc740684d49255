/**
 * Reads a report from the page recorder. It arrives from the page's world, where any script can
 * call the binding, so it is parsed like any outside value: own properties, each of its type,
 * anything else dropped.
 */
import { isRecord, own } from '../../src/wire/values.ts';
import type { PageRecord } from './recorder-script.ts';

const KINDS: readonly PageRecord['kind'][] = [
  'cookie',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'built',
  'script-run',
  'consent-change',
  'tcf-answer',
];

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value.slice(0, 4096) : undefined);
const nullableText = (value: unknown): string | null | undefined => (value === null ? null : textOf(value));

export function readPageRecord(value: unknown): PageRecord | null {
  if (!isRecord(value)) return null;
  const kind = own(value, 'kind');
  const key = textOf(own(value, 'key'));
  const time = own(value, 'time');
  const frameUrl = textOf(own(value, 'frameUrl'));
  const found = KINDS.find((candidate) => candidate === kind);
  if (!found || key === undefined || typeof time !== 'number' || !Number.isFinite(time) || frameUrl === undefined)
    return null;
  const stack = typeof own(value, 'stack') === 'string' ? String(own(value, 'stack')).slice(0, 16_384) : undefined;
  const block = nullableText(own(value, 'block'));
  const purposes = nullableText(own(value, 'purposes'));
  const src = nullableText(own(value, 'src'));
  const since = own(value, 'since');
  return {
    kind: found,
    key,
    time,
    frameUrl,
    ...(stack === undefined ? {} : { stack }),
    ...(block === undefined ? {} : { block }),
    ...(purposes === undefined ? {} : { purposes }),
    ...(src === undefined ? {} : { src }),
    ...(typeof since === 'number' && Number.isFinite(since) && since >= 0 ? { since } : {}),
  };
}
