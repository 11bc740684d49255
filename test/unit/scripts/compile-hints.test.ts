/**
 * scripts/compile-hints.mjs: the files a page runs at once start with V8's compile hint, and their
 * source maps still point each position at its source (docs/decisions/compile-hints.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapping } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, EAGER_FILES, withCompileHint } from '../../../scripts/compile-hints.mjs';

describe('withCompileHint', () => {
  it('puts the hint on a line of its own and moves every mapping down one line', () => {
    const map = JSON.stringify({ version: 3, sources: ['a.ts'], names: [], mappings: 'AAAA;AACA' });
    const hinted = withCompileHint('a();\nb();', map);
    expect(hinted.code).toBe(`${COMPILE_HINT}\na();\nb();`);
    const entry = new SourceMap(JSON.parse(hinted.map)).findEntry(2, 0) as SourceMapping;
    expect([entry.originalSource, entry.originalLine]).toEqual(['a.ts', 1]);
  });
});

describe('the production tree (dist/cdn, built by scripts/build.mjs)', () => {
  const root = 'dist/cdn';
  const names: Record<string, string> = existsSync(`${root}/part-names.json`)
    ? JSON.parse(readFileSync(`${root}/part-names.json`, 'utf8')).files
    : {};
  const fileOf = (out: string) => `${root}/${names[`${out}.js`] ?? `${out}.js`}`;

  it('starts each eager file with the hint, and no other file', () => {
    expect(existsSync(fileOf('v0')), 'run `node scripts/build.mjs` first').toBe(true);
    for (const out of EAGER_FILES) expect(readFileSync(fileOf(out), 'utf8').split('\n')[0], out).toBe(COMPILE_HINT);
    for (const out of ['v0/page-consent-tcf-0.1', 'v0/page-runtime-actions', 'cmp/prompt-0.1'])
      expect(readFileSync(fileOf(out), 'utf8').startsWith(COMPILE_HINT), out).toBe(false);
  });

  it("maps v0.js's code, under the hint, to the runtime's sources", () => {
    const code = readFileSync(fileOf('v0'), 'utf8');
    const map = new SourceMap(JSON.parse(readFileSync(`${fileOf('v0')}.map`, 'utf8')));
    const line = code.split('\n')[1]!;
    const column = line.indexOf('PAGE_RUNTIME');
    expect(column).toBeGreaterThan(0);
    expect((map.findEntry(1, column) as SourceMapping).originalSource).toMatch(/src\/runtime\/v0\.ts$/);
  });
});
