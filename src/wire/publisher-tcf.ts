/**
 * The publisher's own parts of a TC string (docs/consent.md, "Publisher restrictions and
 * purposes"; docs/decisions/tcf-publisher-restrictions.md): `tcf.publisherRestrictions`, the
 * per-purpose, per-vendor restrictions of the core segment, and `tcf.publisherPurposes`, the
 * publisher TC segment (the publisher's TCF purposes on consent or legitimate interest, and its
 * custom purposes). Read by the page's `tcf` object and the server's instance settings alike. A
 * bad restriction entry is dropped with one `consent-tcf-restriction-invalid` diagnostic and the
 * others kept; a bad `publisherPurposes` field with one diagnostic under the caller's code. Pure.
 */
import {
  drop,
  isRecord,
  own,
  type Read,
  readFields,
  readList,
  readNumber,
  readOneOf,
  readText,
  withCode,
} from './values.ts';

export const RESTRICTION_TYPES = ['notAllowed', 'requireConsent', 'requireLi'] as const;
export type RestrictionType = (typeof RESTRICTION_TYPES)[number];

/** One restriction: `type` applies to `purpose` for each of `vendors` (GVL ids). */
export type PublisherRestriction = {
  readonly purpose: number;
  readonly type: RestrictionType;
  readonly vendors: readonly number[];
};

export type CustomPurpose = {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
  readonly legalBasis: 'consent' | 'legitimateInterest';
};

/** The publisher TC segment's settings. */
export type PublisherPurposes = {
  /** TCF purposes the publisher itself processes on consent. */
  readonly consent?: readonly number[];
  /** TCF purposes the publisher itself processes on legitimate interest (2 and 7-11). */
  readonly legitimateInterest?: readonly number[];
  readonly custom?: readonly CustomPurpose[];
};

export const RESTRICTION_INVALID = 'consent-tcf-restriction-invalid';

/** TCF policy: purposes 1 and 3-6 may only be processed on consent (never on legitimate interest). */
export const CONSENT_ONLY_PURPOSES: readonly number[] = [1, 3, 4, 5, 6];
/** The TCF purposes a string can carry (v2.2: 1-11). */
const MAX_PURPOSE = 11;
/** The publisher TC segment counts custom purposes in 6 bits. */
export const MAX_CUSTOM_PURPOSE = 63;
const MAX_VENDOR = 65_535;

/** What a restriction of `type` may apply to; null when any TCF purpose. */
const purposesOf = (type: RestrictionType): readonly number[] | null =>
  type === 'notAllowed' ? null : [2, 7, 8, 9, 10, 11];

const isId = (value: unknown, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

/** The first problem of one entry, as [field suffix, expected, got]; null when it is usable. */
function problemOf(entry: unknown, restricted: ReadonlySet<string>): [string, string, unknown] | null {
  if (!isRecord(entry)) return ['', 'an object {purpose, type, vendors}', entry];
  const [purpose, type, vendors] = [own(entry, 'purpose'), own(entry, 'type'), own(entry, 'vendors')];
  if (!isId(purpose, MAX_PURPOSE)) return ['.purpose', `a TCF purpose from 1 to ${MAX_PURPOSE}`, purpose];
  if (!RESTRICTION_TYPES.includes(type as RestrictionType))
    return ['.type', `one of ${RESTRICTION_TYPES.join(', ')}`, type];
  const allowed = purposesOf(type as RestrictionType);
  if (allowed && !allowed.includes(purpose))
    return [
      '.purpose',
      `a purpose ${type} can apply to (${allowed.join(', ')}; purposes 1 and 3 to 6 are consent only)`,
      purpose,
    ];
  if (!Array.isArray(vendors) || vendors.length === 0 || vendors.length > 5000)
    return ['.vendors', 'an array of 1 to 5000 GVL vendor ids', vendors];
  const bad = vendors.findIndex((id) => !isId(id, MAX_VENDOR));
  if (bad >= 0) return [`.vendors[${bad}]`, `a GVL vendor id (an integer from 1 to ${MAX_VENDOR})`, vendors[bad]];
  const repeated = vendors.findIndex(
    (id, index) => restricted.has(`${purpose}:${id}`) || vendors.indexOf(id) !== index,
  );
  if (repeated >= 0)
    return [`.vendors[${repeated}]`, `one restriction per vendor and purpose (purpose ${purpose})`, vendors[repeated]];
  return null;
}

/** `tcf.publisherRestrictions`: each bad entry dropped with one diagnostic, the rest kept in order. */
export const readPublisherRestrictions: Read<PublisherRestriction[]> = (into, value, field) => {
  if (!Array.isArray(value) || value.length > 100)
    return drop(into, field, 'an array of at most 100 restrictions', value);
  const restricted = new Set<string>();
  const restrictions: PublisherRestriction[] = [];
  for (const [index, entry] of (value as unknown[]).entries()) {
    const problem = problemOf(entry, restricted);
    if (problem) {
      drop(withCode(into, RESTRICTION_INVALID), `${field}[${index}]${problem[0]}`, problem[1], problem[2]);
      continue;
    }
    const { purpose, type, vendors } = entry as PublisherRestriction;
    for (const id of vendors) restricted.add(`${purpose}:${id}`);
    restrictions.push({ purpose, type, vendors: [...vendors] });
  }
  return restrictions;
};

const readCustomPurpose: Read<CustomPurpose> = (into, value, field) => {
  const fields = readFields<Partial<CustomPurpose>>({
    id: readNumber(1, MAX_CUSTOM_PURPOSE),
    name: readText(200, 1),
    description: readText(2000, 1),
    legalBasis: readOneOf(['consent', 'legitimateInterest'] as const),
  })(into, value, field);
  if (!fields) return;
  const { id, name, legalBasis } = fields;
  if (id === undefined || name === undefined || legalBasis === undefined) {
    const missing = id === undefined ? 'id' : name === undefined ? 'name' : 'legalBasis';
    // A present but mistyped field was reported by its reader already.
    return isRecord(value) && own(value, missing) !== undefined
      ? undefined
      : drop(into, `${field}.${missing}`, 'a value', undefined);
  }
  return fields as CustomPurpose;
};

const readPurposeList = readList(readNumber(1, MAX_PURPOSE), MAX_PURPOSE);

/**
 * `tcf.publisherPurposes`: a purpose on legitimate interest that is consent only (1, 3-6), or
 * listed under both bases, is dropped from `legitimateInterest`; a custom purpose id listed
 * before is dropped. One diagnostic each.
 */
export const readPublisherPurposes: Read<PublisherPurposes> = (into, value, field) => {
  const fields = readFields<PublisherPurposes>({
    consent: readPurposeList,
    legitimateInterest: readPurposeList,
    custom: readList(readCustomPurpose, MAX_CUSTOM_PURPOSE),
  })(into, value, field);
  if (!fields) return;
  const consent = fields.consent ? [...new Set(fields.consent)] : undefined;
  const legitimateInterest = fields.legitimateInterest?.filter((id, index) => {
    const why = CONSENT_ONLY_PURPOSES.includes(id)
      ? 'a purpose that may rest on legitimate interest (2, 7 to 11)'
      : consent?.includes(id)
        ? 'a purpose not listed under consent as well'
        : null;
    if (why) drop(into, `${field}.legitimateInterest[${index}]`, why, id);
    return why === null;
  });
  const seen = new Set<number>();
  const custom = fields.custom?.filter((purpose, index) => {
    if (!seen.has(purpose.id)) return seen.add(purpose.id);
    drop(into, `${field}.custom[${index}].id`, 'each custom purpose id once', purpose.id);
    return false;
  });
  return {
    ...(consent ? { consent } : {}),
    ...(legitimateInterest ? { legitimateInterest: [...new Set(legitimateInterest)] } : {}),
    ...(custom ? { custom } : {}),
  };
};
