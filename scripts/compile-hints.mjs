// V8's compile hint for the files whose functions a page view runs as soon as they load
// (docs/decisions/compile-hints.md): `//# allFunctionsCalledOnLoad` as their first line makes
// Chromium compile all their functions with the script, off the main thread when it streams
// it, instead of one by one on the main thread at their first call. Other engines read a comment.

/** The production files (output names, as in scripts/build.mjs) that start with the hint. */
export const EAGER_FILES = new Set(['v0', 'v0/page-consent-0.1', 'v0/page-consent-fast-0.1', 'v0/page-consent-state']);

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** `code` with the hint as a line of its own before it, and its source map (JSON text) with every line moved down by one. */
export function withCompileHint(code, map) {
  const parsed = JSON.parse(map);
  return { code: `${COMPILE_HINT}\n${code}`, map: JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` }) };
}
