/**
 * The return record (docs/decisions/consent-return-record.md): what the consent element found a
 * stored decision to allow, kept in the site store under `consent-return` so that `v0.js` can
 * start it on the next page before the consent element is there. One entry per config (at most
 * RETURN_CONFIGS), keyed by `configKeyOf`:
 * `{k: storage key of the decision, r: the stored decision as JSON, u: valid until (ms),
 * q: {requestKey: 1 allowed under every geo group | 0 otherwise}, i: 1 when the element's set-up may wait for idle}`.
 * An entry is used only while the stored decision is the very one it was made from, before `u`,
 * and under the same release, config text, element id, `type` and Global Privacy Control.
 */
import type { BlockRequest } from './block-markers.ts';

export const RETURN_RECORD = 'consent-return';
export const RETURN_CONFIGS = 8;

/**
 * The runtime's `consent-replay` service (src/runtime/return-replay.ts): null without a usable
 * entry; else whether the element's set-up may wait for the first idle period, and a promise
 * settled by the first block request the entry does not know (the element then starts at once).
 */
export const REPLAY_SERVICE = 'consent-replay';
export type ConsentReplay = { readonly mayWait: boolean; readonly missed: Promise<void> } | null;

export type ReturnEntry = { readonly k: string; readonly r: string; readonly u: number; readonly q: Readonly<Record<string, 0 | 1>>; readonly i: 0 | 1 };

/** The key of a block request in `q`: its policy and its purposes. */
export const requestKeyOf = ({ policy, purposes }: BlockRequest): string => `${policy}|${purposes.join()}`;

/** FNV-1a over `text`, in base 36: a short key, not a secret. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x1000193);
  return (hash >>> 0).toString(36);
}

/** The entry key of a `<page-consent>` element's config: release, GPC, id, `type` and config text. */
export const configKeyOf = (element: Element, hasGpc: boolean): string =>
  hashOf([RELEASE, hasGpc, element.id, element.getAttribute('type'), ...Array.from(element.querySelectorAll(':scope>script[type="application/json"]'), (script) => script.textContent)].join('\n'));

const isFlag = (value: unknown): value is 0 | 1 => value === 0 || value === 1;

/** The record's entry for `configKey`, when it is well formed and still valid for `stored` at `now`; else null. */
export function readReturnEntry(record: unknown, configKey: string, stored: (key: string) => unknown, now: number): ReturnEntry | null {
  const entry = record !== null && typeof record === 'object' && Object.hasOwn(record, configKey) ? (record as Record<string, unknown>)[configKey] : null;
  if (entry === null || typeof entry !== 'object') return null;
  const { k, r, u, q, i } = entry as Record<string, unknown>;
  const isMap = q !== null && typeof q === 'object' && !Array.isArray(q) && Object.values(q).every(isFlag);
  return typeof k === 'string' && typeof r === 'string' && typeof u === 'number' && now < u && isMap && isFlag(i) && r === JSON.stringify(stored(k))
    ? { k, r, u, q: q as ReturnEntry['q'], i }
    : null;
}
