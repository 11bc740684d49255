/**
 * The check and update request bodies (docs/consent.md, "Remote check" and "Update notification") as the server reads them, in strict
 * mode (any diagnostic is a 400), from the same field readers as the page's parsers. Kept apart
 * from consent.ts so that no browser bundle carries them.
 */
import { type ConsentStateValue, CONSENT_STATES, DECISION, type DecisionData } from './consent.ts';
import { diagnostic, type Parsed } from './diagnostic.ts';
import {
  collector,
  isRecord,
  optional,
  own,
  type Read,
  readBoolean,
  readMap,
  readOneOf,
  readText,
  type Schema,
} from './values.ts';

/** Request bodies (docs/consent.md, "Remote check" and "Update notification") as the server reads them; unknown fields are ignored. */
export type CheckRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly consentStateValue: ConsentStateValue;
  readonly matchedGeoGroup: string | null;
  readonly isDirty: boolean;
  /** The browser sends Global Privacy Control and the page applies it (docs/consent.md, "Signals for ad tech"). */
  readonly gpc?: boolean;
};

export type UpdateRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly pageUserId: string;
  readonly consentStateValue: ConsentStateValue;
  /** The browser sent Global Privacy Control (docs/consent.md, "Global Privacy Control"); kept with the audit record. */
  readonly gpc?: boolean;
};

/**
 * A body reader: every field of `schema` over the object `start` returns (the defaults), with
 * `required` fields reported when missing. Written out rather than through readFields, as it
 * runs on every request: filling one object literal is about three times faster than collecting
 * entries or spreading a defaults object (docs/decisions/server-throughput.md).
 */
const readBody = <T>(
  schema: Schema<T>,
  required: readonly (keyof T & string)[],
  start: () => Record<string, unknown> = () => ({}),
) => {
  const keys = Object.keys(schema) as (keyof T & string)[];
  return (json: unknown): Parsed<T | null> => {
    if (!isRecord(json))
      return { value: null, diagnostics: [diagnostic('invalid-field', 'body: a JSON object', json, 'body')] };
    const into = collector('invalid-field');
    const body = start();
    for (const key of keys) {
      const item = optional(into, json, key, schema[key] as Read<unknown>);
      if (item !== undefined) body[key] = item;
    }
    for (const key of required) if (!Object.hasOwn(body, key)) schema[key](into, own(json, key) ?? undefined, key);
    return { value: into.diagnostics.length ? null : (body as T), diagnostics: into.diagnostics };
  };
};

/**
 * Instance ids: any text of 1-100 characters, as the page's config accepts any non-empty string
 * (`"news site/eu"` is an id); only what no store can hold is refused. The same rule everywhere
 * the server reads one (server/consent-request.ts).
 */
export const instanceIdExpected = 'an id of 1-100 characters without NUL or lone surrogates';
export const readInstanceId = readText(100, 1, undefined, instanceIdExpected);

// The server records the purposes a page sends as sent (keys of 1-100 characters): it keeps, it does not judge.
const BODY = {
  ...DECISION,
  purposeConsents: readMap(readBoolean),
  consentInstanceId: readInstanceId,
  consentStateValue: readOneOf(CONSENT_STATES),
  gpc: readBoolean,
};

export const parseCheckRequest: (json: unknown) => Parsed<CheckRequest | null> = readBody<CheckRequest>(
  { ...BODY, matchedGeoGroup: readText(100, 1), isDirty: readBoolean },
  ['consentInstanceId', 'consentStateValue'],
  () => ({ matchedGeoGroup: null, isDirty: false }),
);

export const parseUpdateRequest: (json: unknown) => Parsed<UpdateRequest | null> = readBody<UpdateRequest>(
  { ...BODY, pageUserId: readText(200, 1) },
  ['consentInstanceId', 'consentStateValue', 'pageUserId'],
);
