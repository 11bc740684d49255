/**
 * One message shape for every publisher-facing diagnostic:
 * `[page-consent#id] code: expected X, got Y`. Codes are stable kebab-case strings,
 * each documented in docs/errors.md.
 */
import { type Diagnostic, formatDiagnostic } from '../wire/diagnostic.ts';

export type DiagnosticLevel = 'error' | 'warn';

/** `tag#id`, or just `tag` for an element without an id. */
export function sourceOf(element: Element | string): string {
  if (typeof element === 'string') return element;
  const tag = element.tagName.toLowerCase();
  return element.id ? `${tag}#${element.id}` : tag;
}

export function report(element: Element | string, d: Diagnostic, level: DiagnosticLevel = 'error'): void {
  console[level](formatDiagnostic(sourceOf(element), d));
}
