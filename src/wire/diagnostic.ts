/**
 * The one diagnostic builder of the product (docs/runtime.md, "Diagnostics"): components, the server
 * and the validator all describe a problem as `code: expected X, got Y`, optionally with the
 * wire field it concerns (the server's 400s name it).
 */
export type Diagnostic = {
  readonly code: string;
  readonly expected: string;
  readonly got: string;
  /** The wire field, as a path (`placements[0].anchor.selector`), when the problem is in one. */
  readonly field?: string;
};

/** Pure parsers return their value together with the diagnostics they found. */
export type Parsed<T> = { readonly value: T; readonly diagnostics: readonly Diagnostic[] };

export function diagnostic(code: string, expected: string, got: unknown, field?: string): Diagnostic {
  const built = { code, expected, got: describe(got) };
  return field === undefined ? built : { ...built, field };
}

/** The message: `[source] code: expected X, got Y` (`source` is `tag#id`, or the part's name). */
export function formatDiagnostic(source: string, d: Diagnostic): string {
  return `[${source}] ${d.code}: expected ${d.expected}, got ${d.got}`;
}

/** A short printable form of any value for the "got" part of a message. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 60 ? `"${value.slice(0, 57)}..."` : `"${value}"`;
  if (value === undefined) return 'nothing';
  const text = printable(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** JSON where possible; else `String()` (a BigInt); else the object's tag (no usable `toString`). */
function printable(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
}
