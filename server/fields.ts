/**
 * Small field readers for request bodies and query strings. Each throws an HttpError (400,
 * `invalid-field`) that names the field, so a handler either gets typed data or writes nothing.
 * Every string read here is plain text (no NUL, no lone surrogate), which every store accepts.
 */
import { isPlainText } from '../src/wire/values.ts';
import { invalidField } from './errors.ts';

export const plainTextExpected = 'text without NUL or lone surrogates';

export type Json = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readObject(value: unknown, field: string): Json {
  if (!isObject(value)) throw invalidField(field, 'a JSON object', value);
  return value;
}

type StringRule = { readonly max: number; readonly pattern?: RegExp; readonly patternText?: string };

export function readString(value: unknown, field: string, rule: StringRule): string {
  const expected = rule.patternText ?? `a string of 1-${rule.max} characters`;
  if (typeof value !== 'string' || value.length === 0 || value.length > rule.max) {
    throw invalidField(field, expected, value);
  }
  if (rule.pattern && !rule.pattern.test(value)) throw invalidField(field, expected, value);
  if (!isPlainText(value)) throw invalidField(field, rule.patternText ?? plainTextExpected, value);
  return value;
}

/** Any string value (empty allowed) that is plain text. */
export function readPlainText(value: string, field: string): string {
  if (!isPlainText(value)) throw invalidField(field, plainTextExpected, value);
  return value;
}

/** Absent and `null` both mean "not given". */
export function readOptional<T>(value: unknown, read: (value: unknown) => T): T | null {
  return value === undefined || value === null ? null : read(value);
}

export function readBoolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw invalidField(field, 'true or false', value);
  return value;
}

export function readInteger(value: unknown, field: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField(field, `an integer from ${min} to ${max}`, value);
  }
  return value;
}

export function readEnum<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidField(field, `one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

/** A map with at most `maxKeys` keys of 1-100 characters, each value read by `read`. */
export function readMap<T>(
  value: unknown,
  field: string,
  read: (item: unknown, itemField: string) => T,
  maxKeys = 100,
): Record<string, T> {
  const object = readObject(value, field);
  const entries = Object.entries(object);
  if (entries.length > maxKeys) throw invalidField(field, `at most ${maxKeys} keys`, `${entries.length} keys`);
  for (const [key] of entries) {
    if (key.length === 0 || key.length > 100 || !isPlainText(key)) throw invalidField(field, 'keys of 1-100 characters of plain text', key);
  }
  // fromEntries defines own properties, so `__proto__` stays an ordinary key.
  return Object.fromEntries(entries.map(([key, item]) => [key, read(item, `${field}.${key}`)]));
}

export function readArray<T>(
  value: unknown,
  field: string,
  read: (item: unknown, itemField: string) => T,
  maxItems = 100,
): T[] {
  if (!Array.isArray(value)) throw invalidField(field, 'an array', value);
  if (value.length > maxItems) throw invalidField(field, `at most ${maxItems} items`, `${value.length} items`);
  return value.map((item, index) => read(item, `${field}[${index}]`));
}
