/**
 * Strict mode of the shared wire parsers (src/wire): the server refuses any input with a
 * diagnostic, as a 400 `invalid-field` naming the field, and writes nothing.
 */
import type { Parsed } from '../src/wire/diagnostic.ts';
import { ErrorCode, HttpError } from './errors.ts';

export function strictValue<T>({ value, diagnostics }: Parsed<T | null | undefined>): T {
  const [first] = diagnostics;
  if (!first && value !== null && value !== undefined) return value;
  const field = first?.field ?? 'body';
  const expected = first?.expected.replace(`${field}: `, '') ?? 'a valid value';
  throw new HttpError(400, ErrorCode.invalidField, `${field}: expected ${expected}, got ${first?.got ?? 'nothing'}`);
}
