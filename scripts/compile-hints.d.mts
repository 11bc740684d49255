/** Types of compile-hints.mjs, for its unit tests. */
export const EAGER_FILES: ReadonlySet<string>;
export const COMPILE_HINT: string;
export function withCompileHint(code: string, map: string): { code: string; map: string };
