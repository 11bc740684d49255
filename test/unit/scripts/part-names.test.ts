/**
 * scripts/part-names.mjs: a part is written under the hash of its content, a bundle that loads
 * parts is built after them with their hashes, so a change reaches every loader up the chain and
 * nothing else (docs/decisions/part-names.md).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRounds, buildWithPartNames, encodePartFiles, HASH_LENGTH, hashOf, loaderDefines, PART_NAMES_FILE, readHash, readPreviousParts } from '../../../scripts/part-names.mjs';

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
  'loader.ts': 'console.log("loader", PART_PREFIX, PART_FILES);',
  'middle.ts': 'console.log("middle", PART_PREFIX, PART_FILES);',
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
    buildEntry: ({ in: source, out }: { in: string; out: string }, parts: { prefix: string; files: string }) =>
      build({
        entryPoints: [{ in: source, out }],
        outdir,
        bundle: true,
        sourcemap: true,
        logLevel: 'silent',
        define: { PART_PREFIX: JSON.stringify(parts.prefix), PART_FILES: JSON.stringify(parts.files) },
      }),
  });
  const text = (file: string) => readFileSync(join(outdir, file), 'utf8');
  return { record, text, files: readdirSync(join(outdir, 'v0')).sort() };
}

describe('buildWithPartNames', () => {
  it('names each part after its content and gives each loader the hashes of the parts it loads, and no others', async () => {
    const { record, text, files } = await buildTree('first', SOURCES);
    const { files: named } = record;
    expect(Object.keys(named)).toEqual(['v0/page-fixture-leaf.js', 'v0/page-fixture-middle.js', 'v0/page-fixture-other.js']);
    for (const [part, file] of Object.entries(named)) {
      expect(file).toMatch(new RegExp(`^${part.slice(0, -3)}\\.[0-9a-z]{${HASH_LENGTH}}\\.js$`));
      expect(file.slice(part.length - 2, -3)).toBe(hashOf(text(file)));
    }
    // The files pages name keep their names; each part has its map beside it, named alike.
    expect(files).toEqual([...Object.values(named).flatMap((file) => [file, `${file}.map`].map((path) => path.slice(3)))].sort());
    expect(text('v0.js')).toContain(`"page-fixture-"`);
    expect(text(named['v0/page-fixture-middle.js']!)).toContain(`//# sourceMappingURL=${named['v0/page-fixture-middle.js']!.slice(3)}.map`);
    const hashOfPart = (part: string) => named[`v0/page-fixture-${part}.js`]!.split('.').at(-2);
    expect(text('v0.js')).toContain(`"middle${hashOfPart('middle')}other${hashOfPart('other')}"`);
    expect(text(named['v0/page-fixture-middle.js']!)).toContain(`"leaf${hashOfPart('leaf')}"`);
    expect(text('v0.js')).not.toContain('leaf');
    expect(JSON.parse(readFileSync(join(folder, 'first', PART_NAMES_FILE), 'utf8'))).toEqual(record);
  });

  it('gives a changed part a new name, and every part that loads it new bytes and a new name; an unrelated part keeps its name', async () => {
    const before = await buildTree('before', SOURCES);
    const after = await buildTree('after', { ...SOURCES, 'leaf.ts': 'console.log("leaf, changed");' });
    const [was, is] = [before.record.files, after.record.files];
    expect(is['v0/page-fixture-leaf.js']).not.toBe(was['v0/page-fixture-leaf.js']);
    expect(is['v0/page-fixture-middle.js']).not.toBe(was['v0/page-fixture-middle.js']);
    expect(after.text('v0.js')).not.toBe(before.text('v0.js'));
    expect(is['v0/page-fixture-other.js']).toBe(was['v0/page-fixture-other.js']);
    expect(after.text(is['v0/page-fixture-other.js']!)).toBe(before.text(was['v0/page-fixture-other.js']!));
  });

  it('keeps the part files of the previous build, which pages with earlier entry files ask for, and none older', async () => {
    const first = await buildTree('tree', SOURCES);
    const second = await buildTree('tree', { ...SOURCES, 'leaf.ts': 'console.log("leaf, changed");' });
    const changed = ['v0/page-fixture-leaf.js', 'v0/page-fixture-middle.js'].map((part) => first.record.files[part]!);
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
    expect(buildRounds(ENTRIES)).toEqual([['v0/page-fixture-other', 'v0/page-fixture-leaf'], ['v0/page-fixture-middle'], ['v0']]);
  });

  it('refuses parts that load each other, and a part that is not built', () => {
    expect(() => buildRounds([{ out: 'a', loads: ['b'] }, { out: 'b', loads: ['a'] }])).toThrow('a -> b -> a');
    expect(() => buildRounds([{ out: 'a', loads: ['b'] }])).toThrow('a loads b, which is not built');
  });
});

describe('encodePartFiles', () => {
  it('writes each name followed by its hash, and the browser reads every hash back', () => {
    const hashes = new Map([
      ['actions', 'k3x9a'],
      ['change-size', '0b2c4'],
    ]);
    const encoded = encodePartFiles(hashes);
    expect(encoded).toBe('actionsk3x9achange-size0b2c4');
    for (const [name, hash] of hashes) expect(readHash(encoded, name)).toBe(hash);
  });

  it('finds an order in which a name that also occurs in another hash still reads its own', () => {
    const hashes = new Map([
      ['fast', 'geo12'],
      ['geo', '34567'],
    ]);
    const encoded = encodePartFiles(hashes);
    expect(encoded).toBe('geo34567fastgeo12');
    for (const [name, hash] of hashes) expect(readHash(encoded, name)).toBe(hash);
  });
});

describe('loaderDefines', () => {
  it('gives the prefix and the names and hashes of the parts a bundle loads', () => {
    const hashes = new Map([['v0/page-consent-state', 'ab123']]);
    expect(loaderDefines(['v0/page-consent-state'], hashes)).toEqual({ prefix: 'page-consent-', files: 'stateab123' });
    expect(loaderDefines([], hashes)).toEqual({ prefix: '', files: '' });
  });

  it('refuses a bundle that loads the parts of two bundles', () => {
    expect(() => loaderDefines(['v0/page-consent-state', 'v0/page-runtime-actions'], new Map())).toThrow('one bundle only');
  });
});
