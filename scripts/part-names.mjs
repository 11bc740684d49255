// Content-hashed file names of the lazily loaded parts (docs/decisions/part-names.md). The parts
// one bundle loads share one hash, that of all their built bytes: `v0/page-runtime-actions` is
// written as `v0/page-runtime-actions.<hash>.js`, and so is every other part of `v0.js`. A bundle
// that loads parts is built after them, with their prefix and their hash (`PART_PREFIX`,
// `PART_HASH`: src/browser-shared/parts.ts), so its bytes, and its own name when it is a part too,
// change whenever a part it loads changes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Base-36 characters of a hash (about 26 bits). */
export const HASH_LENGTH = 5;

/**
 * Each tree's record of its parts: `files` (`{"v0/page-runtime-actions.js": "v0/page-runtime-actions.<hash>.js"}`),
 * `loaders` (the defines of each entry that loads parts) and `earlier` (the part files of the
 * previous build that the tree keeps).
 */
export const PART_NAMES_FILE = 'part-names.json';

const MAP_COMMENT = /\n\/\/# sourceMappingURL=\S+\s*$/;

/** A part's output name: `page-<bundle>-<name>`, its name in the bundle being `<name>`. */
const PART = /^(page-[a-z]+-)([a-z][a-z-]*)$/;

/**
 * The hash of the built parts `codes` (one bundle's, in the order of their output names), each
 * without its source map comment (which would name the file itself).
 */
export function hashOf(codes) {
  const digest = createHash('sha256');
  for (const code of codes) digest.update(code.replace(MAP_COMMENT, '')).update('\0');
  return (BigInt(`0x${digest.digest('hex')}`) % 36n ** BigInt(HASH_LENGTH)).toString(36).padStart(HASH_LENGTH, '0');
}

/**
 * The defines of a bundle that loads the parts `loads` (output names) whose hash is `hash`: their
 * prefix (`page-runtime-`), the hash, and their names (`actions,macros`; read in development only).
 */
export function loaderDefines(loads, hash = '') {
  const named = loads.map((out) => ({ out, match: basename(out).match(PART) }));
  const unnamed = named.find(({ match }) => !match);
  if (unnamed) throw new Error(`part ${unnamed.out} is not named page-<bundle>-<name>`);
  const prefixes = new Set(named.map(({ match }) => match[1]));
  if (prefixes.size > 1)
    throw new Error(`a bundle loads the parts of one bundle only, not of ${[...prefixes].join(' and ')}`);
  return { prefix: [...prefixes][0] ?? '', hash, names: named.map(({ match }) => match[2]).join(',') };
}

/** The output names of `entries` (`[{out, loads}]`) in rounds: each after every part it loads. */
export function buildRounds(entries) {
  const byOut = new Map(entries.map((entry) => [entry.out, entry]));
  const depths = new Map();
  const depthOf = (out, path) => {
    if (path.includes(out)) throw new Error(`parts load each other in a cycle: ${[...path, out].join(' -> ')}`);
    if (!depths.has(out)) {
      const loads = byOut.get(out).loads ?? [];
      const missing = loads.find((part) => !byOut.has(part));
      if (missing) throw new Error(`${out} loads ${missing}, which is not built`);
      depths.set(out, Math.max(-1, ...loads.map((part) => depthOf(part, [...path, out]))) + 1);
    }
    return depths.get(out);
  };
  const rounds = [];
  for (const { out } of entries) (rounds[depthOf(out, [])] ??= []).push(out);
  return rounds;
}

/** Parts share one registry (`self.PAGE_PARTS`): their names in their bundles must differ. */
function checkNamesUnique(parts) {
  const names = [...parts].map((out) => basename(out).match(PART)?.[2] ?? out);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`two parts are named ${twice}`);
}

/**
 * Renames the built parts `outs` (`.js` and `.js.map` in `outdir`), the parts of one bundle,
 * after their content: each `{out}.{hash}.js`, the hash of them all. Returns the hash.
 */
function renameAfterContent(outdir, outs) {
  const sorted = [...outs].sort();
  const codes = sorted.map((out) => readFileSync(join(outdir, `${out}.js`), 'utf8'));
  const hash = hashOf(codes);
  sorted.forEach((out, index) => {
    const file = join(outdir, `${out}.js`);
    const named = `${out}.${hash}`;
    writeFileSync(
      join(outdir, `${named}.js`),
      codes[index].replace(MAP_COMMENT, `\n//# sourceMappingURL=${basename(named)}.js.map\n`),
    );
    rmSync(file);
    renameSync(`${file}.map`, join(outdir, `${named}.js.map`));
  });
  return hash;
}

/**
 * The part files of the previous build of `outdir` (and their maps), read before the tree is
 * rebuilt: a page whose files pages name came from that build (cached for up to an hour) may still
 * ask for them. Files of older builds are not kept.
 */
export function readPreviousParts(outdir) {
  const path = join(outdir, PART_NAMES_FILE);
  if (!existsSync(path)) return new Map();
  const files = Object.values(JSON.parse(readFileSync(path, 'utf8')).files ?? {}).flatMap((file) => [
    file,
    `${file}.map`,
  ]);
  return new Map(
    files.filter((file) => existsSync(join(outdir, file))).map((file) => [file, readFileSync(join(outdir, file))]),
  );
}

/**
 * Builds `entries` (`[{in, out, loads}]`, `loads` being the output names of the parts an entry
 * loads) into `outdir` with `buildEntry(entry, {prefix, hash, names})`, each after the parts it
 * loads. Every entry that some entry loads is a part, loaded by that entry only; the parts of one
 * entry are renamed after their content, together, just before it is built. Writes back the
 * `previous` part files (`readPreviousParts`) that this build did not make again, then the record
 * (`PART_NAMES_FILE`), and returns it.
 */
export async function buildWithPartNames({ outdir, entries, buildEntry, previous = new Map() }) {
  const loaded = entries.flatMap((entry) => entry.loads ?? []);
  const twice = loaded.find((part, index) => loaded.indexOf(part) !== index);
  if (twice) throw new Error(`part ${twice} is loaded by two bundles; a part belongs to one`);
  const parts = new Set(loaded);
  checkNamesUnique(parts);
  const byOut = new Map(entries.map((entry) => [entry.out, entry]));
  const hashes = new Map();
  const loaders = {};
  for (const round of buildRounds(entries)) {
    await Promise.all(
      round.map(async (out) => {
        const entry = byOut.get(out);
        const loads = entry.loads ?? [];
        const hash = loads.length ? renameAfterContent(outdir, loads) : '';
        for (const part of loads) hashes.set(part, hash);
        const defines = loaderDefines(loads, hash);
        if (loads.length) loaders[entry.in] = defines;
        await buildEntry(entry, defines);
      }),
    );
  }
  const files = Object.fromEntries(
    [...hashes].sort(([a], [b]) => a.localeCompare(b)).map(([out, hash]) => [`${out}.js`, `${out}.${hash}.js`]),
  );
  const earlier = [...previous.keys()].filter((file) => !existsSync(join(outdir, file))).sort();
  for (const file of earlier) {
    mkdirSync(dirname(join(outdir, file)), { recursive: true });
    writeFileSync(join(outdir, file), previous.get(file));
  }
  const record = {
    files,
    loaders: Object.fromEntries(Object.entries(loaders).sort(([a], [b]) => a.localeCompare(b))),
    earlier,
  };
  writeFileSync(join(outdir, PART_NAMES_FILE), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
