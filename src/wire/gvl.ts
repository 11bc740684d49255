/**
 * The IAB Global Vendor List v3 as the page and the hosted prompt read it: the JSON comes from a
 * server, so it goes through the typed readers like any other remote answer. The fields that the
 * TC string needs (versions, the vendors' declared purposes) are required; the texts a prompt
 * shows are kept when well-typed and dropped one by one otherwise. The result is a plain
 * object that `@iabtechlabtcf/core`'s `GVL` takes as it is.
 */
import type { Parsed } from './diagnostic.ts';
import {
  collector,
  drop,
  optional,
  own,
  type Read,
  readFields,
  readList,
  readMap,
  readNumber,
  readObject,
  readBoolean,
  readText,
  type Schema,
} from './values.ts';

export type GvlEntry = {
  readonly id: number;
  readonly name: string;
  readonly description?: string;
  readonly illustrations?: string[];
};

export type GvlVendor = {
  readonly id: number;
  readonly name: string;
  readonly purposes: number[];
  readonly legIntPurposes: number[];
  readonly flexiblePurposes: number[];
  readonly specialPurposes: number[];
  readonly features: number[];
  readonly specialFeatures: number[];
  readonly dataDeclaration?: number[];
  readonly dataRetention?: Readonly<Record<string, unknown>>;
  readonly usesCookies?: boolean;
  readonly cookieMaxAgeSeconds?: number;
  readonly urls?: readonly { readonly langId: string; readonly privacy: string; readonly legIntClaim?: string }[];
  readonly deletedDate?: string;
};

export type GvlStack = GvlEntry & { readonly purposes: number[]; readonly specialFeatures: number[] };

export type GvlJson = {
  readonly gvlSpecificationVersion: number;
  readonly vendorListVersion: number;
  readonly tcfPolicyVersion: number;
  readonly lastUpdated: string;
  readonly purposes: Readonly<Record<string, GvlEntry>>;
  readonly specialPurposes: Readonly<Record<string, GvlEntry>>;
  readonly features: Readonly<Record<string, GvlEntry>>;
  readonly specialFeatures: Readonly<Record<string, GvlEntry>>;
  readonly stacks: Readonly<Record<string, GvlStack>>;
  readonly dataCategories: Readonly<Record<string, GvlEntry>>;
  readonly vendors: Readonly<Record<string, GvlVendor>>;
};

const id = readNumber(1, 65535);
const ids = readList(id, 1000);
const text = readText(10_000);
const entryFields = { id, name: text, description: text, illustrations: readList(text, 100) };
const ENTRY: Schema<GvlEntry> = entryFields;
const URL_FIELDS = readFields<{ langId: string; privacy: string; legIntClaim?: string }>({
  langId: readText(20, 1),
  privacy: text,
  legIntClaim: text,
});
const VENDOR: Schema<GvlVendor> = {
  ...entryFields,
  purposes: ids,
  legIntPurposes: ids,
  flexiblePurposes: ids,
  specialPurposes: ids,
  features: ids,
  specialFeatures: ids,
  dataDeclaration: ids,
  dataRetention: readObject,
  usesCookies: readBoolean,
  cookieMaxAgeSeconds: readNumber(-1, 2 ** 40),
  urls: readList(URL_FIELDS, 100),
  deletedDate: readText(40),
};
const VENDOR_REQUIRED = [
  'id',
  'name',
  'purposes',
  'legIntPurposes',
  'flexiblePurposes',
  'specialPurposes',
  'features',
  'specialFeatures',
] as const;

/**
 * A map of entries, each of which must carry the `required` fields; others are dropped. A
 * required field that is there but malformed was reported by its reader: one diagnostic each.
 */
function readEntries<T>(
  schema: Schema<T>,
  required: readonly (keyof T & string)[],
  maxKeys: number,
): Read<Record<string, T>> {
  const read = readFields(schema);
  const complete: Read<T> = (into, value, field) => {
    const item = read(into, value, field);
    const missing = item && required.find((key) => !Object.hasOwn(item, key));
    if (!missing) return item;
    return own(value as Record<string, unknown>, missing) === undefined
      ? drop(into, `${field}.${missing}`, 'a value', undefined)
      : undefined;
  };
  return readMap(complete, maxKeys);
}

const GVL = {
  gvlSpecificationVersion: readNumber(3, 99),
  vendorListVersion: readNumber(1, 4095),
  tcfPolicyVersion: readNumber(1, 63),
  lastUpdated: readText(40),
  purposes: readEntries(ENTRY, ['id', 'name'], 100),
  specialPurposes: readEntries(ENTRY, ['id', 'name'], 100),
  features: readEntries(ENTRY, ['id', 'name'], 100),
  specialFeatures: readEntries(ENTRY, ['id', 'name'], 100),
  stacks: readEntries<GvlStack>(
    { ...ENTRY, purposes: ids, specialFeatures: ids },
    ['id', 'name', 'purposes', 'specialFeatures'],
    200,
  ),
  dataCategories: readEntries(ENTRY, ['id', 'name'], 100),
  vendors: readEntries(VENDOR, VENDOR_REQUIRED, 10_000),
} as const;
const REQUIRED = ['vendorListVersion', 'tcfPolicyVersion', 'purposes', 'specialFeatures', 'vendors'] as const;
const EMPTY = {
  gvlSpecificationVersion: 3,
  lastUpdated: '',
  specialPurposes: {},
  features: {},
  stacks: {},
  dataCategories: {},
};

/** A GVL v3 document; null (with the diagnostics) when a field the TC string needs is missing. */
export function parseGvl(json: unknown, code = 'consent-tcf-vendor-list-invalid'): Parsed<GvlJson | null> {
  const into = collector(code);
  const object = readObject(into, json, 'vendor list');
  if (!object) return { value: null, diagnostics: into.diagnostics };
  const read: Record<string, unknown> = { ...EMPTY };
  for (const [key, reader] of Object.entries(GVL)) {
    const value = optional(into, object, key, reader as Read<unknown>);
    if (value !== undefined) read[key] = value;
  }
  const missing = REQUIRED.find((key) => !Object.hasOwn(read, key));
  if (missing && own(object, missing) === undefined) drop(into, missing, 'a value', undefined);
  return { value: missing ? null : (read as GvlJson), diagnostics: into.diagnostics };
}
