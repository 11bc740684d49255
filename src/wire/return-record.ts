/**
 * The return record (docs/decisions/consent-return-record.md): what the consent element found a
 * stored decision to allow, kept so that the element can start it on the next page at its
 * build, before its parts and its set-up. A cache beside the site store, never part of it: one
 * localStorage item per config (returnKeyOf), at most RETURN_CONFIGS per origin, whose loss costs
 * one slower page. An entry is lines: the site-store name of the decision, the stored decision
 * as JSON, the time the entry stops being valid (ms), `1` when the element's set-up may wait for
 * idle (else `0`), then one line per block request seen: `+` and the request's key when the
 * decision allows it under every geo group, else `-` and the key. An entry is used only while the stored decision is the very one it was made
 * from, before its time, and under the same release, config, element id, `type` and Global
 * Privacy Control.
 */
import type { BlockRequest } from './block-markers.ts';

export const RETURN_CONFIGS = 8;

/** The prefix of the entries' localStorage items. */
export const RETURN_PREFIX = 'page-return:';

/** A usable entry's lines after the time: the wait flag, then the signed request keys. */
export type ReturnLines = readonly string[];

/** The key of a block request in an entry: its policy and its purposes. */
export const requestKeyOf = ({ policy, purposes }: BlockRequest): string => `${policy}|${purposes.join()}`;

/**
 * The localStorage item of a `<page-consent>` config's entry: the prefix and one line of JSON of
 * the release, GPC, the element's id and `type` and its config (read by the elements' rule).
 */
export const returnKeyOf = (id: string, type: string | null, config: unknown, hasGpc: boolean): string =>
  RETURN_PREFIX + JSON.stringify([RELEASE, hasGpc, id, type, config]);

/** The lines after the time of an entry's text, while it is valid for the stored decision (`stored`) at `now`; else null. */
export function readReturnEntry(
  text: string | null | undefined,
  stored: (key: string) => unknown,
  now: number,
): ReturnLines | null {
  const [key = '', decision, until, ...lines] = text?.split('\n') ?? [];
  return decision !== undefined && decision === JSON.stringify(stored(key)) && now < Number(until) ? lines : null;
}
