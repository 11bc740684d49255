/**
 * Strict mode of the shared wire parsers (src/wire): the server refuses any input with a
 * diagnostic, as a 400 `invalid-field` naming the field, and writes nothing.
 */
import type { Diagnostic, Parsed } from '../src/wire/diagnostic.ts';
import { collector, type Read } from '../src/wire/values.ts';
import { ErrorCode, HttpError } from './errors.ts';

/** The 400 for one diagnostic; `prefix` names where the parsed value sits (`config.placements[0].pos`). */
export function refuseField(d: Diagnostic | undefined, prefix?: string): HttpError {
  const inner = d?.field || undefined;
  const field = prefix && inner ? `${prefix}.${inner}` : (prefix ?? inner ?? 'body');
  const expected = d
    ? inner && d.expected.startsWith(`${inner}: `)
      ? d.expected.slice(inner.length + 2)
      : d.expected
    : 'a valid value';
  return new HttpError(400, ErrorCode.invalidField, `${field}: expected ${expected}, got ${d?.got ?? 'nothing'}`);
}

/** The parsed value, or the first diagnostic thrown as a 400. */
export function strictValue<T>({ value, diagnostics }: Parsed<T | null | undefined>, prefix?: string): T {
  if (diagnostics.length || value === null || value === undefined) throw refuseField(diagnostics[0], prefix);
  return value;
}

/** `value` read by a shared reader (src/wire/values.ts) at `field`; its first diagnostic is thrown as a 400. */
export function strictRead<T>(read: Read<T>, value: unknown, field: string): T {
  const into = collector('invalid-field');
  return strictValue({ value: read(into, value, field), diagnostics: into.diagnostics });
}

/** `strictRead` of an optional value: absent and `null` both mean "not given" (null). */
export const strictOptional = <T>(read: Read<T>, value: unknown, field: string): T | null =>
  value === undefined || value === null ? null : strictRead(read, value, field);
