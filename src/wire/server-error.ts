/**
 * The reference server's error answer (docs/errors.md, "Server"): `{"error": {"code", "message"}}`,
 * where a 400's message names the field (`tcf.vendors[1]: expected ..., got 9999`). Read by the
 * admin dashboard, which shows the message next to the section that sent the request. Pure.
 */
import type { Parsed } from './diagnostic.ts';
import { collector, drop, type Read, readFields, readText } from './values.ts';

export type ServerError = { readonly code: string; readonly message: string };

/** The code of an error answer the dashboard cannot read (it then shows the HTTP status). */
export const SERVER_ERROR_INVALID = 'admin-answer-invalid';

const readError: Read<ServerError> = (into, value, field) => {
  const error = readFields<Partial<ServerError>>({ code: readText(100, 1), message: readText(4000, 1) })(
    into,
    value,
    field,
  );
  if (!error) return;
  return error.code !== undefined && error.message !== undefined
    ? (error as ServerError)
    : drop(into, field, 'an object with a code and a message', value);
};

/** The `error` of an error answer; null (with one diagnostic) when the body is not that envelope. */
export function parseServerError(json: unknown): Parsed<ServerError | null> {
  const into = collector(SERVER_ERROR_INVALID);
  const error = readFields<{ error: ServerError }>({ error: readError })(into, json, 'answer')?.error;
  if (!error && !into.diagnostics.length) drop(into, 'answer.error', 'an object with a code and a message', undefined);
  return { value: error ?? null, diagnostics: into.diagnostics.slice(0, 1) };
}
