/**
 * Google's Additional Consent string (docs/decisions/additional-consent.md), which carries
 * consent for Google's ad technology providers (ATPs) that are not on the IAB's GVL. An AC
 * string from outside (a check answer, storage, a CMP frame's message) is read here only:
 * version 1 `1~<ids>` or version 2 `2~<consented ids>~dv.<disclosed ids>`, at most
 * AC_MAX_LENGTH characters and AC_MAX_IDS ids, each id from 1 to AC_MAX_ID. The setting and
 * Google's ATP list are in google-atps.ts. Pure; small, for the parts that only check a string.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';

/** The longest AC string read, the most ids it may list (consented and disclosed), the largest id. */
export const AC_MAX_LENGTH = 16_384;
export const AC_MAX_IDS = 2_000;
export const AC_MAX_ID = 999_999;

/** What an AC string says: which ATPs the reader consented to, and which were disclosed without consent. */
export type AdditionalConsent = {
  readonly version: 1 | 2;
  readonly consented: readonly number[];
  readonly disclosed: readonly number[];
};

export const AC_INVALID = 'consent-additional-consent-invalid';
const EXPECTED = `an AC string "2~<ids>~dv.<ids>" or "1~<ids>" of at most ${AC_MAX_LENGTH} characters and ${AC_MAX_IDS} ids from 1 to ${AC_MAX_ID}`;

/** `1~<list>` or `2~<list>~dv` with `.<list>`; each list is checked by `idsOf`. */
const AC_PATTERN = /^(?:1~([\d.]*)|2~([\d.]*)~dv(?:\.([\d.]*))?)$/;

/** A list's ids: empty, or ids of 1 to 6 digits without a leading zero, one dot apart (else [0]: refused). */
const idsOf = (list = ''): number[] => (list ? list.split('.').map((id) => (/^[1-9]\d{0,5}$/.test(id) ? +id : 0)) : []);

/** The AC string's lists, or null when `value` is not one within the bounds. */
function readAdditionalConsent(value: unknown): AdditionalConsent | null {
  const match = typeof value === 'string' && value.length <= AC_MAX_LENGTH ? AC_PATTERN.exec(value) : null;
  const consented = idsOf(match?.[1] ?? match?.[2]);
  const disclosed = idsOf(match?.[3]);
  const ids = [...consented, ...disclosed];
  return match && ids.length <= AC_MAX_IDS && !ids.includes(0)
    ? { version: match[1] === undefined ? 2 : 1, consented, disclosed }
    : null;
}

/** Whether `value` reads as an AC string (for the consent macros, which report nothing). */
export const isAdditionalConsent = (value: unknown): value is string => readAdditionalConsent(value) !== null;

/** The AC string's lists, or null with one diagnostic (the string is then dropped: no consent is claimed). */
export function parseAdditionalConsent(value: unknown): Parsed<AdditionalConsent | null> {
  const read = readAdditionalConsent(value);
  return { value: read, diagnostics: read ? [] : [diagnostic(AC_INVALID, EXPECTED, value)] };
}
/**
 * The version 2 string of a choice over `disclosed` ATPs: the consented ids, then `dv.` and the
 * others (Google's spec lists a consented ATP once, in the first list). Ascending, each once.
 */
export function formatAdditionalConsent(disclosed: readonly number[], isConsented: (id: number) => boolean): string {
  const ids = [...new Set(disclosed)].sort((a, b) => a - b);
  return `2~${ids.filter(isConsented).join('.')}~dv.${ids.filter((id) => !isConsented(id)).join('.')}`;
}
