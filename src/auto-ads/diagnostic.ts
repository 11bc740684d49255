/**
 * Builds the coded diagnostics of page-auto-ads. Extensions use the runtime only through the
 * `page` object, so this tiny builder lives here instead of being imported from the runtime.
 */
import type { Diagnostic } from '../runtime/index.ts';

/** `got` is printed as JSON and cut to 60 characters; `undefined` prints as `nothing`. */
export function diagnostic(code: string, expected: string, got: unknown): Diagnostic {
  return { code, expected, got: (JSON.stringify(got) ?? 'nothing').slice(0, 60) };
}
