// Prints raw, gzip and brotli bytes of every production CDN file and fails above the budgets
// in size-budgets.json (brotli, summed per group). Run `npm run build` first.
import { checkBudgets, measureCdn } from './cdn-sizes.mjs';

const sizes = measureCdn();
console.log('file'.padEnd(40), 'raw'.padStart(8), 'gzip'.padStart(8), 'brotli'.padStart(8));
for (const [file, size] of sizes) {
  console.log(file.padEnd(40), ...[size.raw, size.gzip, size.brotli].map((n) => String(n).padStart(8)));
}
let failed = false;
for (const { files, total, brotli, missing, isOver } of checkBudgets(sizes)) {
  if (isOver) failed = true;
  const verdict = isOver ? 'OVER BUDGET' : 'ok';
  console.log(
    `${verdict.padEnd(11)} ${files.join(' + ')}: ${total} / ${brotli} brotli${missing.length ? ` (not built: ${missing.join(', ')})` : ''}`,
  );
}
if (sizes.size === 0) {
  console.error('size: no files in dist/cdn; run npm run build');
  failed = true;
}
process.exit(failed ? 1 : 0);
