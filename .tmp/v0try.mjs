import { build } from 'esbuild';
import { minify } from 'terser';
import { brotliCompressSync, constants } from 'node:zlib';
import { readFileSync, writeFileSync, copyFileSync } from 'node:fs';
const br = (s) => brotliCompressSync(Buffer.from(s), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
export async function size(entry) {
  const r = await build({ entryPoints: [entry], bundle: true, format: 'iife', write: false, minify: true, target: ['chrome100', 'firefox100', 'safari15.4'], define: { DEV: 'false', RELEASE: '"00SS1qPqzdHR"' }, legalComments: 'none' });
  const out = await minify(r.outputFiles[0].text, { ecma: 2020, compress: { passes: 2 }, mangle: true, format: { comments: false } });
  return br(out.code);
}
const file = process.argv[2], from = process.argv[3], to = process.argv[4] ?? '';
const entry = process.argv[5] ?? 'src/runtime/entry.ts';
const before = await size(entry);
const original = readFileSync(file, 'utf8');
if (!original.includes(from)) { console.log('not found'); process.exit(1); }
writeFileSync(file, original.replace(from, to));
try { console.log(before, '->', await size(entry)); } finally { writeFileSync(file, original); }
