/**
 * Builds a publisher diagnostic. Extensions may import only types from the runtime, so this is
 * the extension's own small copy of `diagnostic()`: `got` is the value as short JSON.
 */
import type { Diagnostic } from '../runtime/index.ts';

export const diagnose = (code: string, expected: string, got: unknown): Diagnostic => ({
  code,
  expected,
  got: (JSON.stringify(got) ?? 'nothing').slice(0, 80),
});
