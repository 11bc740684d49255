/**
 * The hosted prompt's diagnostics (docs/errors.md, Consent): what the frame read from outside
 * and had to leave out (its client info, an IAB translation file, the vendor list), as
 * `[page-consent-prompt] code: expected X, got Y` warnings on the frame's console. The prompt
 * goes on without the bad part, so a warning is enough.
 */
import { type Diagnostic, formatDiagnostic } from '../wire/diagnostic.ts';

export function reportAll(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) console.warn(formatDiagnostic('page-consent-prompt', d));
}
