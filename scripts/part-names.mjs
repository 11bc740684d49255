// Content-hashed file names of the lazily loaded parts (docs/decisions/part-names.md). A part
// `v0/page-runtime-actions` is written as `v0/page-runtime-actions.<hash>.js`, the hash being
// that of its built bytes. A bundle that loads parts is built after them, with the hashes of
// those it loads and of no others (`PART_PREFIX`, `PART_FILES`: src/browser-shared/parts.ts), so
// its bytes, and its own name when it is a part too, change whenever a part it loads changes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Base-36 characters of a part's hash (about 26 bits); src/browser-shared/parts.ts reads as many. */
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

/** The hash of a built part: of its code, without a source map comment (which would name the file itself). */
export function hashOf(code) {
  const digest = createHash('sha256').update(code.replace(MAP_COMMENT, '')).digest('hex');
  return (BigInt(`0x${digest}`) % 36n ** BigInt(HASH_LENGTH)).toString(36).padStart(HASH_LENGTH, '0');
}

/** What the browser does with `PART_FILES` (src/browser-shared/parts.ts): the hash after the first occurrence of `name`. */
export const readHash = (partFiles, name) => partFiles.split(name)[1]?.slice(0, HASH_LENGTH);

/**
 * `PART_FILES` for the parts `hashes` (`Map` of name to hash): each name followed by its hash,
 * in the first order (of the rotations of the given one) in which every name reads its own hash.
 */
export function encodePartFiles(hashes) {
  const entries = [...hashes];
  for (let shift = 0; shift < Math.max(1, entries.length); shift++) {
    const rotated = [...entries.slice(shift), ...entries.slice(0, shift)];
    const encoded = rotated.map(([name, hash]) => `${name}${hash}`).join('');
    if (rotated.every(([name, hash]) => readHash(encoded, name) === hash)) return encoded;
  }
  throw new Error(`no order of ${entries.map(([name]) => name).join(', ')} reads every hash back`);
}

/** The defines of a bundle that loads the parts `loads` (output names), whose hashes are in `hashes`. */
export function loaderDefines(loads, hashes) {
  const named = loads.map((out) => ({ out, match: basename(out).match(PART) }));
  const unnamed = named.find(({ match }) => !match);
  if (unnamed) throw new Error(`part ${unnamed.out} is not named page-<bundle>-<name>`);
  const prefixes = new Set(named.map(({ match }) => match[1]));
  if (prefixes.size > 1) throw new Error(`a bundle loads the parts of one bundle only, not of ${[...prefixes].join(' and ')}`);
  return { prefix: [...prefixes][0] ?? '', files: encodePartFiles(new Map(named.map(({ out, match }) => [match[2], hashes.get(out)]))) };
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

/** Renames the built part `out` (`.js` and `.js.map` in `outdir`) after its content; returns the hash. */
function renameAfterContent(outdir, out) {
  const file = join(outdir, `${out}.js`);
  const code = readFileSync(file, 'utf8');
  const hash = hashOf(code);
  const named = `${out}.${hash}`;
  writeFileSync(join(outdir, `${named}.js`), code.replace(MAP_COMMENT, `\n//# sourceMappingURL=${basename(named)}.js.map\n`));
  rmSync(file);
  renameSync(`${file}.map`, join(outdir, `${named}.js.map`));
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
  const files = Object.values(JSON.parse(readFileSync(path, 'utf8')).files ?? {}).flatMap((file) => [file, `${file}.map`]);
  return new Map(files.filter((file) => existsSync(join(outdir, file))).map((file) => [file, readFileSync(join(outdir, file))]));
}

/**
 * Builds `entries` (`[{in, out, loads}]`, `loads` being the output names of the parts an entry
 * loads) into `outdir` with `buildEntry(entry, {prefix, files})`, each after the parts it loads.
 * Every entry that some entry loads is a part, renamed after its content. Writes back the
 * `previous` part files (`readPreviousParts`) that this build did not make again, then the record
 * (`PART_NAMES_FILE`), and returns it.
 */
export async function buildWithPartNames({ outdir, entries, buildEntry, previous = new Map() }) {
  const parts = new Set(entries.flatMap((entry) => entry.loads ?? []));
  checkNamesUnique(parts);
  const byOut = new Map(entries.map((entry) => [entry.out, entry]));
  const hashes = new Map();
  const loaders = {};
  for (const round of buildRounds(entries)) {
    await Promise.all(
      round.map(async (out) => {
        const entry = byOut.get(out);
        const defines = loaderDefines(entry.loads ?? [], hashes);
        if (entry.loads?.length) loaders[entry.in] = defines;
        await buildEntry(entry, defines);
        if (parts.has(out)) hashes.set(out, renameAfterContent(outdir, out));
      }),
    );
  }
  const files = Object.fromEntries([...hashes].sort(([a], [b]) => a.localeCompare(b)).map(([out, hash]) => [`${out}.js`, `${out}.${hash}.js`]));
  const earlier = [...previous.keys()].filter((file) => !existsSync(join(outdir, file))).sort();
  for (const file of earlier) {
    mkdirSync(dirname(join(outdir, file)), { recursive: true });
    writeFileSync(join(outdir, file), previous.get(file));
  }
  const record = { files, loaders: Object.fromEntries(Object.entries(loaders).sort(([a], [b]) => a.localeCompare(b))), earlier };
  writeFileSync(join(outdir, PART_NAMES_FILE), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}
