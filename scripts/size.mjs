// Prints raw, gzip and brotli bytes of every production CDN file and fails above the budgets
// in size-budgets.json (brotli, summed per group). Run `npm run build` first.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = 'dist/cdn';
const list = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? list(path) : path.endsWith('.js') ? [path] : [];
  });

const sizes = new Map();
for (const path of existsSync(root) ? list(root) : []) {
  const bytes = readFileSync(path);
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  sizes.set(relative(root, path), { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli });
}
console.log('file'.padEnd(28), 'raw'.padStart(8), 'gzip'.padStart(8), 'brotli'.padStart(8));
for (const [file, size] of sizes) {
  console.log(file.padEnd(28), ...[size.raw, size.gzip, size.brotli].map((n) => String(n).padStart(8)));
}
let failed = false;
for (const { files, brotli } of JSON.parse(readFileSync('size-budgets.json', 'utf8')).budgets) {
  const present = files.filter((file) => sizes.has(file));
  const total = present.reduce((sum, file) => sum + sizes.get(file).brotli, 0);
  const missing = files.filter((file) => !sizes.has(file));
  const verdict = total <= brotli ? 'ok' : 'OVER BUDGET';
  if (total > brotli) failed = true;
  console.log(`${verdict.padEnd(11)} ${files.join(' + ')}: ${total} / ${brotli} brotli${missing.length ? ` (not built: ${missing.join(', ')})` : ''}`);
}
if (sizes.size === 0) {
  console.error('size: no files in dist/cdn; run npm run build');
  failed = true;
}
process.exit(failed ? 1 : 0);
