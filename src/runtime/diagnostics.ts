/**
 * One message shape for every publisher-facing diagnostic:
 * `[page-consent#id] code: expected X, got Y`. Codes are stable kebab-case strings,
 * each documented in docs/errors.md.
 */
export type Diagnostic = { readonly code: string; readonly expected: string; readonly got: string };

export type DiagnosticLevel = 'error' | 'warn';

/** Pure parsers return their value together with the diagnostics they found. */
export type Parsed<T> = { readonly value: T; readonly diagnostics: readonly Diagnostic[] };

export function diagnostic(code: string, expected: string, got: unknown): Diagnostic {
  return { code, expected, got: describe(got) };
}

/** A short printable form of any value for the "got" part of a message. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 60 ? `"${value.slice(0, 57)}..."` : `"${value}"`;
  if (value === undefined) return 'nothing';
  try {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(value);
  }
}

export function formatDiagnostic(source: string, d: Diagnostic): string {
  return `[${source}] ${d.code}: expected ${d.expected}, got ${d.got}`;
}

/** `tag#id`, or just `tag` for an element without an id. */
export function sourceOf(element: Element | string): string {
  if (typeof element === 'string') return element;
  const tag = element.tagName.toLowerCase();
  return element.id ? `${tag}#${element.id}` : tag;
}

export function report(element: Element | string, d: Diagnostic, level: DiagnosticLevel = 'error'): void {
  console[level](formatDiagnostic(sourceOf(element), d));
}
