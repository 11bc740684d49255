/**
 * The check and update request bodies (PRODUCT 3.3, 3.4) as the server reads them, in strict
 * mode (any diagnostic is a 400), from the same field readers as the page's parsers. Kept apart
 * from consent.ts so that no browser bundle carries them.
 */
import { type ConsentStateValue, CONSENT_STATES, DECISION, type DecisionData } from './consent.ts';
import { diagnostic, type Parsed } from './diagnostic.ts';
import { collector, isRecord, type Json, own, readBoolean, readFields, readOneOf, readText, type Schema } from './values.ts';

/** Request bodies (PRODUCT 3.3, 3.4) as the server reads them; unknown fields are ignored. */
export type CheckRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly consentStateValue: ConsentStateValue;
  readonly matchedGeoGroup: string | null;
  readonly isDirty: boolean;
  /** The browser sends Global Privacy Control and the page applies it (PRODUCT 3.9). */
  readonly gpc?: boolean;
};

export type UpdateRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly pageUserId: string;
  readonly consentStateValue: ConsentStateValue;
  /** The browser sent Global Privacy Control (PRODUCT 3.9); kept with the audit record. */
  readonly gpc?: boolean;
};


/** A body reader: every field of `schema`, with `required` ones reported when missing. */
const readBody = <T>(schema: Schema<T>, required: readonly (keyof T & string)[]) => {
  const read = readFields<T>(schema);
  return (json: unknown): Parsed<T | null> => {
    if (!isRecord(json)) return { value: null, diagnostics: [diagnostic('invalid-field', 'body: a JSON object', json, 'body')] };
    const into = collector('invalid-field');
    const body = read(into, json, '') as T & Json;
    for (const key of required) if (!Object.hasOwn(body, key)) schema[key](into, own(json, key) ?? undefined, key);
    return { value: into.diagnostics.length ? null : body, diagnostics: into.diagnostics };
  };
};

/** Instance ids: the same rule everywhere the server reads one. */
export const readInstanceId = readText(100, 1, /^[A-Za-z0-9._:-]+$/, 'an id of 1-100 letters, digits or . _ : -');

const BODY = { ...DECISION, consentInstanceId: readInstanceId, consentStateValue: readOneOf(CONSENT_STATES), gpc: readBoolean };

const parseCheckBody = readBody<Omit<CheckRequest, 'matchedGeoGroup' | 'isDirty'> & { matchedGeoGroup?: string; isDirty?: boolean }>(
  { ...BODY, matchedGeoGroup: readText(100, 1), isDirty: readBoolean },
  ['consentInstanceId', 'consentStateValue'],
);

export function parseCheckRequest(json: unknown): Parsed<CheckRequest | null> {
  const { value, diagnostics } = parseCheckBody(json);
  return { value: value && { ...value, matchedGeoGroup: value.matchedGeoGroup ?? null, isDirty: value.isDirty ?? false }, diagnostics };
}

export const parseUpdateRequest: (json: unknown) => Parsed<UpdateRequest | null> = readBody<UpdateRequest>({ ...BODY, pageUserId: readText(200, 1) }, [
  'consentInstanceId',
  'consentStateValue',
  'pageUserId',
]);
