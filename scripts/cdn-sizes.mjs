// Raw, gzip -9 and brotli (quality 11) bytes of the production CDN files and the brotli budgets
// of size-budgets.json. Shared by `npm run size` (scripts/size.mjs) and `npm run bench -- size`.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

/** Map of path relative to `root` (`v0/page-consent-0.1.js`) to its sizes; empty when not built. */
export function measureCdn(root = CDN_ROOT) {
  const sizes = new Map();
  for (const path of existsSync(root) ? listFiles(root) : []) sizes.set(relative(root, path), measureBytes(readFileSync(path)));
  return sizes;
}

export function readBudgets(path = 'size-budgets.json') {
  return JSON.parse(readFileSync(path, 'utf8')).budgets;
}

/** Per budget group: the brotli total of its built files, the budget, the files not built. */
export function checkBudgets(sizes, budgets = readBudgets()) {
  return budgets.map(({ files, brotli }) => {
    const total = files.filter((file) => sizes.has(file)).reduce((sum, file) => sum + sizes.get(file).brotli, 0);
    return { files, total, brotli, missing: files.filter((file) => !sizes.has(file)), isOver: total > brotli };
  });
}
