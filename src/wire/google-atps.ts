/**
 * Google's ad technology providers for the Additional Consent string
 * (docs/decisions/additional-consent.md): the `tcf.googleAtps` setting that names them (ids, or
 * "all" of the list), and Google's ATP list: the CSV Google publishes (id, name, policy URL,
 * domains), read by the reference server (`GOOGLE_ATP_LIST`), and the JSON the server serves it
 * as (`/tcf/google-atps.json`: `{"atps": [{id, name, policyUrl, domains}]}`), whose ids the TCF
 * part reads for "all". Pure.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';
import { AC_MAX_ID, AC_MAX_IDS } from './additional-consent.ts';
import { collector, drop, isRecord, own, type Read, readFields, readList, readNumber, readText } from './values.ts';

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

/** The list as the server serves it as JSON. */
export const atpListJson = (atps: readonly GoogleAtp[]) => ({ atps });

const readAtpId = readNumber(1, AC_MAX_ID);
const readAtpIdList = readFields<{ atps: { id?: number }[] }>({
  atps: readList(readFields<{ id?: number }>({ id: readAtpId }), ATP_LIST_MAX_ROWS),
});

/** The ids of the served JSON (an entry without a usable id is left out with a diagnostic); null: not that JSON. */
export function parseAtpIds(json: unknown): Parsed<number[] | null> {
  const into = collector(ATP_LIST_INVALID);
  const atps = readAtpIdList(into, json, 'googleAtpList')?.atps;
  if (!atps && !into.diagnostics.length) drop(into, 'googleAtpList.atps', 'an array of ATPs', undefined);
  const ids = atps?.map((atp) => atp.id).filter((id) => id !== undefined);
  return { value: ids ?? null, diagnostics: into.diagnostics };
}

/** An ATP of the served JSON as the admin dashboard lists it: its id and name. */
export type AtpName = { readonly id: number; readonly name: string };

// Pure: a bundle that does not call parseAtpNames (the TCF part) leaves them out.
const readAtpFields = /* @__PURE__ */ readFields<Partial<AtpName>>({
  id: readAtpId,
  name: /* @__PURE__ */ readText(200, 1),
});

/** One entry with both fields; a missing one is reported here, a mistyped one by its reader. */
const readAtpName: Read<AtpName> = (into, value, field) => {
  const atp = readAtpFields(into, value, field);
  if (!atp) return;
  const missing = atp.id === undefined ? 'id' : atp.name === undefined ? 'name' : null;
  if (missing === null) return atp as AtpName;
  return isRecord(value) && own(value, missing) !== undefined
    ? undefined
    : drop(into, `${field}.${missing}`, 'a value', undefined);
};

const readAtpNameList = /* @__PURE__ */ readFields<{ atps: AtpName[] }>({
  atps: /* @__PURE__ */ readList(readAtpName, ATP_LIST_MAX_ROWS),
});

/**
 * The ids and names of the served JSON (the admin dashboard's ATP chooser; the TCF part reads
 * the ids alone with `parseAtpIds`, which keeps its bundle small): an entry without a usable id
 * or name is left out with a diagnostic; null: not that JSON.
 */
export function parseAtpNames(json: unknown): Parsed<AtpName[] | null> {
  const into = collector(ATP_LIST_INVALID);
  const atps = readAtpNameList(into, json, 'googleAtpList')?.atps;
  if (!atps && !into.diagnostics.length) drop(into, 'googleAtpList.atps', 'an array of ATPs', undefined);
  return { value: atps ?? null, diagnostics: into.diagnostics };
}
