/**
 * The return record (docs/decisions/consent-return-record.md): what the consent element found a
 * stored decision to allow, kept so that `v0.js` can start it on the next page before the
 * consent element is there. A cache beside the site store, never part of it: the localStorage
 * item `page-return:{hostname}` (returnKeyOf), whose loss costs one slower page. It holds at most
 * RETURN_CONFIGS entries, oldest first, separated by an empty line; an entry is lines: its config
 * key (configKeyOf), the site-store name of the decision, the stored decision as JSON, the time
 * the entry stops being valid (ms), `1` when the element's set-up may wait for idle (else `0`),
 * then one line per block request seen: `+` and the request's key when the decision allows it
 * under every geo group, else `-` and the key. An entry is used only while the stored decision
 * is the very one it was made from, before its time, and under the same release, config text,
 * element id, `type` and Global Privacy Control.
 */
import type { BlockRequest } from './block-markers.ts';

export const RETURN_CONFIGS = 8;

export const returnKeyOf = (hostname: string) => `page-return:${hostname}`;

/**
 * The runtime's `consent-replay` service (src/runtime/return-replay.ts): null without a usable
 * entry; else whether the element's set-up may wait for the first idle period, and a promise
 * settled by the first block request the entry does not know (the element then starts at once).
 */
export const REPLAY_SERVICE = 'consent-replay';
export type ConsentReplay = { readonly mayWait: boolean; readonly missed: Promise<unknown> } | null;

/** A usable entry's lines after the time: the wait flag, then the signed request keys. */
export type ReturnLines = readonly string[];

/** The key of a block request in an entry: its policy and its purposes. */
export const requestKeyOf = ({ policy, purposes }: BlockRequest): string => `${policy}|${purposes.join()}`;

/** The entry key of a `<page-consent>` element's config: FNV-1a (a short key, not a secret) of the release, GPC, id, `type` and config text. */
export function configKeyOf(element: Element, hasGpc: boolean): string {
  // The first config script: with more than one the config is refused and no entry is written.
  const text = [RELEASE, hasGpc, element.id, element.getAttribute('type'), element.querySelector(':scope>script[type="application/json"]')?.textContent].join('\n');
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x1000193);
  return (hash >>> 0).toString(36);
}

/** The entries of a record's text, each as its lines. */
export const entriesOf = (text: string | null | undefined): string[][] => (text ? text.split('\n\n').map((entry) => entry.split('\n')) : []);

/** The lines after the time of `text`'s entry `configKey`, while it is valid for the stored decision (`stored`) at `now`; else null. */
export function readReturnEntry(text: string | null | undefined, configKey: string, stored: (key: string) => unknown, now: number): ReturnLines | null {
  const [, key = '', decision, until, ...lines] = entriesOf(text).find(([name]) => name === configKey) ?? [];
  return decision !== undefined && decision === JSON.stringify(stored(key)) && now < Number(until) ? lines : null;
}
