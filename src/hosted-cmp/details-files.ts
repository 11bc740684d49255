/**
 * The files the second layer reads from its server (the GVL, the IAB translation of the
 * reader's language): fetched with a time-out, like every remote call of the frame, and a
 * problem reported on the frame's console (docs/errors.md), so the prompt goes on without it.
 */
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import { readBody } from '../wire/read-body.ts';
import { reportAll } from './report.ts';

const FETCH_TIMEOUT_MS = 8000;

/** Reports what could not be read (`expected` it to be), or the diagnostic it was rejected with; null, so the prompt goes on without it. */
export function reportFailed(code: string, expected: string, error: unknown): null {
  reportAll([
    typeof (error as Diagnostic | null)?.expected === 'string'
      ? (error as Diagnostic)
      : diagnostic(code, expected, String(error)),
  ]);
  return null;
}

/** Byte caps (docs/reliability.md, "Byte caps"): the GVL (several times the IAB's own), an IAB translation file. */
export const VENDOR_LIST_MAX_BYTES = 4 << 20;
export const TRANSLATION_MAX_BYTES = 512 << 10;

/** The JSON of `url`, read up to `maxBytes`; rejects on a network error, a non-2xx answer, a larger body (with its diagnostic), bad JSON or the time-out. */
export async function fetchJson(url: string, maxBytes: number): Promise<unknown> {
  const response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const text = await readBody(response, maxBytes);
  if (typeof text !== 'string') throw text;
  return JSON.parse(text);
}
