// Raw, gzip -9 and brotli (quality 11) bytes of the production CDN files and the brotli budgets
// of size-budgets.json. Shared by `npm run size` (scripts/size.mjs) and `npm run bench -- size`.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PART_NAMES_FILE } from './part-names.mjs';

export const CDN_ROOT = 'dist/cdn';

/** Every file under `dir` whose name ends with `suffix`, recursively. */
export function listFiles(dir, suffix = '.js') {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path, suffix) : path.endsWith(suffix) ? [path] : [];
  });
}

export function measureBytes(bytes) {
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli };
}

/**
 * The tree's record of its parts (scripts/part-names.mjs): `files` maps a part's name
 * (`v0/page-runtime-actions.js`) to its file (`v0/page-runtime-actions.<hash>.js`), `loaders` the
 * source of each bundle that loads parts to its defines, `earlier` lists the previous build's
 * part files the tree keeps. Empty when not built.
 */
export function readPartNames(root = CDN_ROOT) {
  const path = join(root, PART_NAMES_FILE);
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { files: {}, loaders: {}, earlier: [] };
}

/**
 * Map of path relative to `root` (`v0/page-consent-0.1.js`, `v0/page-runtime-actions.<hash>.js`)
 * to its sizes, without the parts kept from the previous build; empty when not built.
 */
export function measureCdn(root = CDN_ROOT) {
  const earlier = new Set(readPartNames(root).earlier);
  const sizes = new Map();
  for (const path of existsSync(root) ? listFiles(root) : []) {
    const file = relative(root, path);
    if (!earlier.has(file)) sizes.set(file, measureBytes(readFileSync(path)));
  }
  return sizes;
}

export function readBudgets(path = 'size-budgets.json') {
  return JSON.parse(readFileSync(path, 'utf8')).budgets;
}

/**
 * Per budget group: the brotli total of its built files, the budget, the files not built. A
 * budget names a part by its name (`v0/page-runtime-actions.js`), measured in its hashed file.
 */
export function checkBudgets(sizes, budgets = readBudgets(), partFiles = readPartNames().files) {
  const fileOf = (file) => partFiles[file] ?? file;
  return budgets.map(({ files, brotli }) => {
    const built = files.filter((file) => sizes.has(fileOf(file)));
    const total = built.reduce((sum, file) => sum + sizes.get(fileOf(file)).brotli, 0);
    return { files, total, brotli, missing: files.filter((file) => !sizes.has(fileOf(file))), isOver: total > brotli };
  });
}
