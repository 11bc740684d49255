/**
 * The files the second layer reads from its server (the GVL, the IAB translation of the
 * reader's language): fetched with a time-out, like every remote call of the frame, and a
 * problem reported on the frame's console (docs/errors.md), so the prompt goes on without it.
 */
import { diagnostic } from '../wire/diagnostic.ts';
import { reportAll } from './report.ts';

const FETCH_TIMEOUT_MS = 8000;

/** Reports what could not be read (`expected` it to be); null, so the prompt goes on without it. */
export function reportFailed(code: string, expected: string, error: unknown): null {
  reportAll([diagnostic(code, expected, String(error))]);
  return null;
}

/** The JSON of `url`; rejects on a network error, a non-2xx answer, bad JSON or the time-out. */
export async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}
