/**
 * Typed readers for untrusted values (docs/runtime.md, "Untrusted values"): a value of the wrong type
 * is dropped with one coded diagnostic, never coerced, and names are looked up as own
 * properties only (`constructor` is an ordinary name). Every wire parser is built from these.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

export type Json = Readonly<Record<string, unknown>>;

/** Where a parser collects its diagnostics, and the code its type errors carry. */
export type Collector = { readonly code: string; readonly diagnostics: Diagnostic[] };

/** Reads one value: the typed value, or undefined after one diagnostic. */
export type Read<T> = (collector: Collector, value: unknown, field: string) => T | undefined;

export const collector = (code: string): Collector => ({ code, diagnostics: [] });

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The own property `key` of `record` (a JSON object, or a map read by `readMap`), never one
 * inherited from `Object.prototype`; else undefined.
 */
export const own = <T = unknown>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** Records a dropped value; returns undefined so readers can `return drop(...)`. */
export function drop(into: Collector, field: string, expected: string, got: unknown): undefined {
  into.diagnostics.push(diagnostic(into.code, `${field}: ${expected}`, got, field));
}

/** Text that every store accepts: no NUL and no lone surrogate (well-formed UTF-16). */
export const isPlainText = (text: string): boolean =>
  !/\0/.test(text) && !/[\uD800-\uDFFF]/.test(text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''));

/** An own field of `record`: absent or null is undefined without a diagnostic. */
export function optional<T>(into: Collector, record: Json, key: string, read: Read<T>, path = key): T | undefined {
  const value = own(record, key);
  return value === undefined || value === null ? undefined : read(into, value, path);
}

export const readBoolean: Read<boolean> = (into, value, field) =>
  typeof value === 'boolean' ? value : drop(into, field, 'true or false', value);

export const readObject: Read<Json> = (into, value, field) =>
  isRecord(value) ? value : drop(into, field, 'a JSON object', value);

/** A string of `min`-`max` characters of plain text, matching `pattern` when given. */
export function readText(
  max: number,
  min = 0,
  pattern?: RegExp,
  expected = `a string of ${min}-${max} characters`,
): Read<string> {
  return (into, value, field) =>
    typeof value === 'string' &&
    value.length >= min &&
    value.length <= max &&
    isPlainText(value) &&
    (!pattern || pattern.test(value))
      ? value
      : drop(into, field, expected, value);
}

/** A finite number, an integer when `isInteger`, within `min`-`max`. */
export function readNumber(min: number, max: number, isInteger = true): Read<number> {
  const expected = `${isInteger ? 'an integer' : 'a number'} from ${min} to ${max}`;
  return (into, value, field) =>
    typeof value === 'number' &&
    (isInteger ? Number.isInteger(value) : Number.isFinite(value)) &&
    value >= min &&
    value <= max
      ? value
      : drop(into, field, expected, value);
}

export function readOneOf<T extends string>(allowed: readonly T[]): Read<T> {
  return (into, value, field) =>
    allowed.includes(value as T) ? (value as T) : drop(into, field, `one of ${allowed.join(', ')}`, value);
}

/** An array of at most `maxItems`; items that fail `read` are dropped one by one. */
export function readList<T>(read: Read<T>, maxItems = 100): Read<T[]> {
  return (into, value, field) => {
    if (!Array.isArray(value) || value.length > maxItems)
      return drop(into, field, `an array of at most ${maxItems} items`, value);
    const items: T[] = [];
    value.forEach((item, index) => {
      const parsed = read(into, item, `${field}[${index}]`);
      if (parsed !== undefined) items.push(parsed);
    });
    return items;
  };
}

/** A map key: 1-100 characters of plain text. */
const isMapKey = (key: string): boolean => key.length > 0 && key.length <= 100 && isPlainText(key);

/**
 * An object used as a map (attributes, shared data; purpose ids through `readPurposeMap`): keys
 * that pass `isKey` (1-100 characters of plain text by default), at most `maxKeys`; a key that
 * fails is dropped, and so is an entry whose value fails `read`, one by one. The result holds own
 * properties only, so `__proto__` and `constructor` are ordinary keys.
 */
export function readMap<T>(
  read: Read<T>,
  maxKeys = 100,
  isKey = isMapKey,
  keyExpected = 'a key of 1-100 characters',
): Read<Record<string, T>> {
  return (into, value, field) => {
    if (!isRecord(value)) return drop(into, field, 'a JSON object', value);
    const keys = Object.keys(value);
    if (keys.length > maxKeys) return drop(into, field, `at most ${maxKeys} keys`, `${keys.length} keys`);
    const entries: [string, T][] = [];
    for (const key of keys) {
      if (!isKey(key)) drop(into, field, keyExpected, key);
      else {
        const item = read(into, value[key], `${field}.${key}`);
        if (item !== undefined) entries.push([key, item]);
      }
    }
    return Object.fromEntries(entries);
  };
}

/** Parses JSON text; undefined when it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The same diagnostics list under another code: one parser, several kinds of problem. */
export const withCode = (into: Collector, code: string): Collector => ({ code, diagnostics: into.diagnostics });

/** Readers of an object's fields, by name. */
export type Schema<T> = { readonly [K in keyof T]-?: Read<NonNullable<T[K]>> };

/**
 * An object read field by field: each own field named in `schema` that is present and not null
 * is read by its reader; a field that fails is left out, unknown fields are ignored.
 */
export function readFields<T>(schema: Schema<T>): Read<T> {
  return (into, value, field) => {
    const object = readObject(into, value, field);
    if (!object) return;
    const entries: [string, unknown][] = [];
    for (const key of Object.keys(schema)) {
      const item = optional(
        into,
        object,
        key,
        schema[key as keyof T] as Read<unknown>,
        field ? `${field}.${key}` : key,
      );
      if (item !== undefined) entries.push([key, item]);
    }
    return Object.fromEntries(entries) as T;
  };
}
