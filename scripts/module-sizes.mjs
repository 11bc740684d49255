// Which source modules take how many minified bytes in each production bundle. A bundle that
// loads parts gets the prefix, hash and names of its parts in the last build (dist/cdn/part-names.json).
import { build } from 'esbuild';
import { readPartNames } from './cdn-sizes.mjs';
const entry = process.argv[2] ?? 'src/runtime/v0.ts';
const parts = readPartNames().loaders[entry] ?? { prefix: '', hash: '', names: '' };
const result = await build({
  entryPoints: [entry],
  bundle: true,
  format: 'iife',
  minify: true,
  write: false,
  metafile: true,
  define: {
    DEV: 'false',
    RELEASE: '"sizes"',
    PART_PREFIX: JSON.stringify(parts.prefix),
    PART_HASH: JSON.stringify(parts.hash),
    PART_NAMES: JSON.stringify(parts.names),
  },
  target: ['chrome100', 'firefox100', 'safari15.4'],
});
const output = Object.values(result.metafile.outputs)[0];
const rows = Object.entries(output.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
for (const [file, info] of rows) console.log(String(info.bytesInOutput).padStart(7), file);
console.log(String(output.bytes).padStart(7), 'total');
