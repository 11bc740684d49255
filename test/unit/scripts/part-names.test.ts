/**
 * scripts/part-names.mjs: the parts of one bundle are written under the hash of their content,
 * and the bundle that loads them is built after them with that hash, so a change reaches every
 * loader up the chain and the parts of other bundles keep their names (docs/decisions/part-names.md).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildRounds,
  buildWithPartNames,
  HASH_LENGTH,
  hashOf,
  loaderDefines,
  PART_NAMES_FILE,
  readPreviousParts,
} from '../../../scripts/part-names.mjs';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'part-names-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/**
 * A tree like the CDN's: `v0` (named by pages) loads the parts `page-fixture-middle` and
 * `page-fixture-other`; `page-fixture-middle` loads `page-fixture-leaf`. Each bundle prints the
 * defines it was built with, as the real bundles build their parts' URLs from them.
 */
const SOURCES: Record<string, string> = {
  'loader.ts': 'console.log("loader", PART_PREFIX, PART_HASH);',
  'middle.ts': 'console.log("middle", PART_PREFIX, PART_HASH);',
  'other.ts': 'console.log("other");',
  'leaf.ts': 'console.log("leaf");',
};
const ENTRIES = [
  { in: 'loader.ts', out: 'v0', loads: ['v0/page-fixture-middle', 'v0/page-fixture-other'] },
  { in: 'middle.ts', out: 'v0/page-fixture-middle', loads: ['v0/page-fixture-leaf'] },
  { in: 'other.ts', out: 'v0/page-fixture-other', loads: [] },
  { in: 'leaf.ts', out: 'v0/page-fixture-leaf', loads: [] },
];

/**
 * Builds the fixture tree from `sources` (written to one folder) into `{folder}/{name}`, as
 * scripts/build.mjs does (the previous build's parts kept); returns its record and its files' text.
 */
async function buildTree(name: string, sources: Record<string, string>) {
  const src = join(folder, 'src');
  const outdir = join(folder, name);
  const previous = readPreviousParts(outdir);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  for (const [file, text] of Object.entries(sources)) writeFileSync(join(src, file), text);
  const record = await buildWithPartNames({
    outdir,
    previous,
    entries: ENTRIES.map((entry) => ({ ...entry, in: join(src, entry.in) })),
    buildEntry: (
      { in: source, out }: { in: string; out: string },
      parts: { prefix: string; hash: string; names: string },
    ) =>
      build({
        entryPoints: [{ in: source, out }],
        outdir,
        bundle: true,
        sourcemap: true,
        logLevel: 'silent',
        define: { PART_PREFIX: JSON.stringify(parts.prefix), PART_HASH: JSON.stringify(parts.hash) },
      }),
  });
  const text = (file: string) => readFileSync(join(outdir, file), 'utf8');
  return { record, text, files: readdirSync(join(outdir, 'v0')).sort() };
}

describe('buildWithPartNames', () => {
  it('names the parts of each bundle after their content and gives the bundle that loads them their hash, and no other', async () => {
    const { record, text, files } = await buildTree('first', SOURCES);
    const { files: named } = record;
    expect(Object.keys(named)).toEqual([
      'v0/page-fixture-leaf.js',
      'v0/page-fixture-middle.js',
      'v0/page-fixture-other.js',
    ]);
    for (const [part, file] of Object.entries(named))
      expect(file).toMatch(new RegExp(`^${part.slice(0, -3)}\\.[0-9a-z]{${HASH_LENGTH}}\\.js$`));
    const hashOfPart = (part: string) => named[`v0/page-fixture-${part}.js`]!.split('.').at(-2);
    // The parts of v0 (middle, other) share the hash of both; leaf, middle's part, has its own.
    expect(hashOfPart('middle')).toBe(
      hashOf([text(named['v0/page-fixture-middle.js']!), text(named['v0/page-fixture-other.js']!)]),
    );
    expect(hashOfPart('other')).toBe(hashOfPart('middle'));
    expect(hashOfPart('leaf')).toBe(hashOf([text(named['v0/page-fixture-leaf.js']!)]));
    // The files pages name keep their names; each part has its map beside it, named alike.
    expect(files).toEqual(
      [...Object.values(named).flatMap((file) => [file, `${file}.map`].map((path) => path.slice(3)))].sort(),
    );
    expect(text('v0.js')).toContain(`"page-fixture-"`);
    expect(text(named['v0/page-fixture-middle.js']!)).toContain(
      `//# sourceMappingURL=${named['v0/page-fixture-middle.js']!.slice(3)}.map`,
    );
    expect(text('v0.js')).toContain(`"${hashOfPart('middle')}"`);
    expect(text(named['v0/page-fixture-middle.js']!)).toContain(`"${hashOfPart('leaf')}"`);
    expect(text('v0.js')).not.toContain(hashOfPart('leaf'));
    expect(JSON.parse(readFileSync(join(folder, 'first', PART_NAMES_FILE), 'utf8'))).toEqual(record);
  });

  it('gives a changed part a new name, as every part of its bundle, and every part that loads it new bytes and a new name', async () => {
    const before = await buildTree('before', SOURCES);
    const after = await buildTree('after', { ...SOURCES, 'leaf.ts': 'console.log("leaf, changed");' });
    const [was, is] = [before.record.files, after.record.files];
    expect(is['v0/page-fixture-leaf.js']).not.toBe(was['v0/page-fixture-leaf.js']);
    expect(is['v0/page-fixture-middle.js']).not.toBe(was['v0/page-fixture-middle.js']);
    expect(after.text('v0.js')).not.toBe(before.text('v0.js'));
    // `other` is unchanged but shares the bundle of `middle`: a new name, the same code (its map comment names the file).
    expect(is['v0/page-fixture-other.js']).not.toBe(was['v0/page-fixture-other.js']);
    const code = (text: string) => text.replace(/\/\/# sourceMappingURL=.*\n$/, '');
    expect(code(after.text(is['v0/page-fixture-other.js']!))).toBe(code(before.text(was['v0/page-fixture-other.js']!)));
  });

  it('keeps the names of the parts of a bundle none of whose parts changed', async () => {
    const before = await buildTree('before', SOURCES);
    const after = await buildTree('after', {
      ...SOURCES,
      'loader.ts': 'console.log("loader, changed", PART_PREFIX, PART_HASH);',
    });
    expect(after.record.files).toEqual(before.record.files);
    expect(after.text('v0.js')).not.toBe(before.text('v0.js'));
  });

  it('refuses a part that two bundles load', async () => {
    const entries = [
      ...ENTRIES,
      { in: join(folder, 'src', 'leaf.ts'), out: 'v0/page-fixture-second', loads: ['v0/page-fixture-leaf'] },
    ];
    await expect(
      buildWithPartNames({ outdir: join(folder, 'twice'), entries, buildEntry: async () => {} }),
    ).rejects.toThrow('page-fixture-leaf is loaded by two bundles');
  });

  it('keeps the part files of the previous build, which pages with earlier entry files ask for, and none older', async () => {
    const first = await buildTree('tree', SOURCES);
    const second = await buildTree('tree', { ...SOURCES, 'leaf.ts': 'console.log("leaf, changed");' });
    const changed = ['v0/page-fixture-leaf.js', 'v0/page-fixture-middle.js', 'v0/page-fixture-other.js'].map(
      (part) => first.record.files[part]!,
    );
    expect(second.record.earlier).toEqual(changed.flatMap((file) => [file, `${file}.map`]).sort());
    for (const file of changed) expect(second.text(file)).toBe(first.text(file));
    const third = await buildTree('tree', { ...SOURCES, 'leaf.ts': 'console.log("leaf, changed again");' });
    expect(third.record.earlier).not.toContain(changed[0]);
    expect(third.files).not.toContain(changed[0]!.slice(3));
  });

  it('keeps every name when nothing changed', async () => {
    const [first, second] = [await buildTree('one', SOURCES), await buildTree('two', SOURCES)];
    expect(second.record).toEqual(first.record);
    expect(second.text('v0.js')).toBe(first.text('v0.js'));
  });
});

describe('buildRounds', () => {
  it('builds each entry after every part it loads', () => {
    expect(buildRounds(ENTRIES)).toEqual([
      ['v0/page-fixture-other', 'v0/page-fixture-leaf'],
      ['v0/page-fixture-middle'],
      ['v0'],
    ]);
  });

  it('refuses parts that load each other, and a part that is not built', () => {
    expect(() =>
      buildRounds([
        { out: 'a', loads: ['b'] },
        { out: 'b', loads: ['a'] },
      ]),
    ).toThrow('a -> b -> a');
    expect(() => buildRounds([{ out: 'a', loads: ['b'] }])).toThrow('a loads b, which is not built');
  });
});

describe('loaderDefines', () => {
  it('gives the prefix, the hash and the names of the parts a bundle loads', () => {
    expect(loaderDefines(['v0/page-consent-state', 'v0/page-consent-change-size'], 'ab123')).toEqual({
      prefix: 'page-consent-',
      hash: 'ab123',
      names: 'state,change-size',
    });
    expect(loaderDefines([])).toEqual({ prefix: '', hash: '', names: '' });
  });

  it('refuses a bundle that loads the parts of two bundles', () => {
    expect(() => loaderDefines(['v0/page-consent-state', 'v0/page-runtime-actions'], 'ab123')).toThrow(
      'one bundle only',
    );
  });
});
