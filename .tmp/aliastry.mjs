import { build } from 'esbuild';
import { minify } from 'terser';
import { brotliCompressSync, constants } from 'node:zlib';
import { resolve } from 'node:path';
const br = (s) => brotliCompressSync(Buffer.from(s), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
for (const useShim of [false, true]) {
  const r = await build({ entryPoints: ['src/consent/entry.ts'], bundle: true, format: 'iife', write: false, minify: true, target: ['chrome100'], define: { DEV: 'false', RELEASE: '"x"' },
    plugins: useShim ? [{ name: 'shim', setup(b) { b.onResolve({ filter: /diagnostic\.ts$/ }, (a) => a.importer.includes('/src/') ? { path: resolve('.tmp/shim.ts') } : undefined); } }] : [] });
  const out = await minify(r.outputFiles[0].text, { ecma: 2020, compress: { passes: 2 }, mangle: true });
  console.log(useShim, br(out.code));
}
