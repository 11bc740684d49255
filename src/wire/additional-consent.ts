/**
 * Google's Additional Consent (docs/decisions/additional-consent.md): the AC string that carries
 * consent for Google's ad technology providers (ATPs) that are not on the IAB's GVL, the
 * `tcf.googleAtps` setting that names them, and Google's ATP list (a CSV: id, name, policy URL,
 * domains). An AC string from outside (a check answer, storage, a CMP frame's message) is read
 * here only: version 1 `1~<ids>` or version 2 `2~<consented ids>~dv.<disclosed ids>`, at most
 * AC_MAX_LENGTH characters and AC_MAX_IDS ids, each id from 1 to AC_MAX_ID. Pure.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';
import { drop, type Read, readList, readNumber } from './values.ts';

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

const IDS = '(?:[1-9]\\d{0,5}(?:\\.[1-9]\\d{0,5})*)?';
const AC_PATTERN = new RegExp(`^(?:1~(${IDS})|2~(${IDS})~dv(?:\\.(${IDS}))?)$`);

const idsOf = (list: string | undefined): number[] => (list ? list.split('.').map(Number) : []);

/** The AC string's lists, or null with one diagnostic (the string is then dropped: no consent is claimed). */
export function parseAdditionalConsent(value: unknown): Parsed<AdditionalConsent | null> {
  const match = typeof value === 'string' && value.length <= AC_MAX_LENGTH ? AC_PATTERN.exec(value) : null;
  const consented = idsOf(match?.[1] ?? match?.[2]);
  const disclosed = idsOf(match?.[3]);
  if (!match || consented.length + disclosed.length > AC_MAX_IDS)
    return { value: null, diagnostics: [diagnostic(AC_INVALID, EXPECTED, value)] };
  return { value: { version: match[1] === undefined ? 2 : 1, consented, disclosed }, diagnostics: [] };
}

/**
 * The version 2 string of a choice over `disclosed` ATPs: the consented ids, then `dv.` and the
 * others (Google's spec lists a consented ATP once, in the first list). Ascending, each once.
 */
export function formatAdditionalConsent(disclosed: readonly number[], isConsented: (id: number) => boolean): string {
  const ids = [...new Set(disclosed)].sort((a, b) => a - b);
  return `2~${ids.filter(isConsented).join('.')}~dv.${ids.filter((id) => !isConsented(id)).join('.')}`;
}

/** `tcf.googleAtps`: ATP ids, or "all" (every ATP of the list the server reads). */
export type GoogleAtps = readonly number[] | 'all';

const readAtpIds = readList(readNumber(1, AC_MAX_ID), AC_MAX_IDS);

export const readGoogleAtps: Read<GoogleAtps> = (into, value, field) =>
  value === 'all'
    ? 'all'
    : Array.isArray(value)
      ? readAtpIds(into, value, field)
      : drop(into, field, '"all" or an array of Google ATP ids', value);

/** The ids `atps` names among the list's (all of them for "all"; an id the list lacks is kept: the list may be older). */
export const atpIdsOf = (atps: GoogleAtps, list: readonly { readonly id: number }[] | null): number[] =>
  atps === 'all' ? (list ?? []).map((atp) => atp.id) : [...atps];

/** One row of Google's ATP list. */
export type GoogleAtp = {
  readonly id: number;
  readonly name: string;
  readonly policyUrl: string;
  readonly domains: readonly string[];
};

/** The byte cap of the list (Google's has about 600 rows in under 100 KB). */
export const ATP_LIST_MAX_BYTES = 1 << 20;
export const ATP_LIST_MAX_ROWS = AC_MAX_IDS;
export const ATP_LIST_INVALID = 'consent-google-atp-list-invalid';

/** The fields of a CSV text (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (isQuoted) {
      if (char !== '"') field += char;
      else if (text[at + 1] === '"') field += text[++at];
      else isQuoted = false;
    } else if (char === '"') isQuoted = true;
    else if (char === ',') {
      row.push(field.trim());
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at++;
      row.push(field.trim());
      if (row.some(Boolean)) rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  row.push(field.trim());
  if (row.some(Boolean)) rows.push(row);
  return rows;
}

const HEADER = ['id', 'name', 'policyurl', 'domains'];
const headerName = (cell: string) => cell.toLowerCase().replace(/[^a-z]/g, '');

/**
 * Google's ATP list: a header `id,name,policy_url,domains`, then one ATP per row; its domains
 * are separated by spaces. A row with a bad id, no name, a policy URL that is not http(s) or an
 * id listed before is left out with a diagnostic naming its line; a wrong header refuses the
 * file (null).
 */
export function parseGoogleAtpList(text: string): Parsed<GoogleAtp[] | null> {
  const [header = [], ...rows] = csvRows(text.replace(/^\uFEFF/, ''));
  if (header.length < HEADER.length || HEADER.some((name, index) => headerName(header[index]!) !== name))
    return {
      value: null,
      diagnostics: [diagnostic(ATP_LIST_INVALID, 'a CSV with the header id,name,policy_url,domains', header.join(','))],
    };
  const diagnostics = [];
  const atps: GoogleAtp[] = [];
  const seen = new Set<number>();
  for (const [index, [id = '', name = '', policyUrl = '', domains = '']] of rows.entries()) {
    const field = `line ${index + 2}`;
    const number = /^[1-9]\d{0,5}$/.test(id) ? Number(id) : 0;
    const problem = !number
      ? ['an ATP id from 1 to 999999', id]
      : seen.has(number)
        ? ['each id once', id]
        : !name || name.length > 200
          ? ['a name of 1 to 200 characters', name]
          : !/^https?:\/\/[^\s]+$/.test(policyUrl) || policyUrl.length > 2000
            ? ['an http(s) policy URL', policyUrl]
            : atps.length >= ATP_LIST_MAX_ROWS
              ? [`at most ${ATP_LIST_MAX_ROWS} ATPs`, id]
              : null;
    if (problem) {
      diagnostics.push(diagnostic(ATP_LIST_INVALID, problem[0]!, problem[1], field));
      continue;
    }
    seen.add(number);
    atps.push({ id: number, name, policyUrl, domains: domains.split(/\s+/).filter(Boolean) });
  }
  return { value: atps, diagnostics };
}
