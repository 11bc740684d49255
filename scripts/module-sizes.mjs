// Which source modules take how many minified bytes in each production bundle.
import { build } from 'esbuild';
const entry = process.argv[2] ?? 'src/runtime/entry.ts';
const result = await build({
  entryPoints: [entry], bundle: true, format: 'iife', minify: true, write: false, metafile: true,
  define: { DEV: 'false', RELEASE: '"sizes"' }, target: ['chrome100', 'firefox100', 'safari15.4'],
});
const output = Object.values(result.metafile.outputs)[0];
const rows = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
for (const [file, info] of rows) console.log(String(info.bytesInOutput).padStart(7), file);
console.log(String(output.bytes).padStart(7), 'total');
