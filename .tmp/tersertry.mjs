import { build } from 'esbuild';
import { minify } from 'terser';
import { brotliCompressSync, constants } from 'node:zlib';
process.chdir('/work/main');
const br = (s) => brotliCompressSync(Buffer.from(s), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const variants = {
  base: { ecma: 2020, compress: { passes: 2 }, mangle: true },
  p3: { ecma: 2020, compress: { passes: 3 }, mangle: true },
  ecma2022: { ecma: 2022, compress: { passes: 2 }, mangle: true, module: false },
  noesbuildmin: 'raw',
};
for (const entry of ['src/runtime/entry.ts', 'src/consent/entry.ts']) {
  for (const minifyEs of [true, false]) {
    const r = await build({ entryPoints: [entry], bundle: true, format: 'iife', write: false, minify: minifyEs, target: ['chrome100', 'firefox100', 'safari15.4'], define: { DEV: 'false', RELEASE: '"00SS1qPqzdHR"' }, legalComments: 'none' });
    const code = r.outputFiles[0].text;
    for (const [name, opts] of Object.entries(variants)) {
      if (opts === 'raw') { console.log(entry, minifyEs, name, br(code)); continue; }
      const out = await minify(code, opts);
      console.log(entry, 'esbuildmin', minifyEs, name, br(out.code));
    }
  }
}
