/**
 * The purpose id rule (docs/consent.md, "Purpose ids"): 1-100 characters, each a letter or a
 * digit of any script or one of `.` `_` `:` `-` (so every `setPurpose` argument name is one).
 * One rule for every place a purpose is named: the instance config, the page config, the keys of
 * `purposeConsents` (check answers, stored decisions, CMP messages, TCF purpose mappings) and the
 * block markers.
 */
import { type Read, readMap, readText } from './values.ts';

export const PURPOSE_ID = /^[\p{L}\p{N}_.:-]{1,100}$/u;

/** What a refused id's diagnostic says was expected. */
export const PURPOSE_ID_EXPECTED = 'a purpose id of letters, digits or . _ : -';

export const isPurposeId = (id: string): boolean => PURPOSE_ID.test(id);

export const readPurposeId: Read<string> = /* @__PURE__ */ readText(100, 1, PURPOSE_ID, PURPOSE_ID_EXPECTED);

/** A map keyed by purpose ids: a key outside the rule is dropped with a diagnostic, its value unread. */
export const readPurposeMap = <T>(read: Read<T>, maxKeys = 100): Read<Record<string, T>> =>
  readMap(read, maxKeys, isPurposeId, PURPOSE_ID_EXPECTED);
