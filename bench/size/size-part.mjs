// Part "size": raw, gzip -9 and brotli 11 bytes of every dist/cdn file, of v0.js with each
// extension, and of the peers' files a page needs, with the brotli budgets beside them.
import { readFileSync } from 'node:fs';
import { checkBudgets, measureBytes, measureCdn, readBudgets, readPartNames } from '../../scripts/cdn-sizes.mjs';
import { formatNumber } from '../lib/format.mjs';
import { ensureBuild } from './ensure-build.mjs';

/** What a page of each peer loads (vanilla-cookieconsent needs its CSS; klaro.js embeds its CSS). */
export const PEER_FILES = {
  'vanilla-cookieconsent 3.1 (JS + CSS)': [
    'vanilla-cookieconsent/dist/cookieconsent.umd.js',
    'vanilla-cookieconsent/dist/cookieconsent.css',
  ],
  'klaro 0.7 (klaro.js, CSS included)': ['klaro/dist/klaro.js'],
  'IAB TCF stub (@iabtechlabtcf/stub)': ['@iabtechlabtcf/stub/lib/stub.js'],
};

const sum = (sizes) =>
  sizes.reduce(
    (total, size) => ({ raw: total.raw + size.raw, gzip: total.gzip + size.gzip, brotli: total.brotli + size.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );

/** A part's name (`v0/page-runtime-actions.js`) by its file (`v0/page-runtime-actions.<hash>.js`), as the budgets name it. */
const partNames = () => Object.fromEntries(Object.entries(readPartNames().files).map(([name, file]) => [file, name]));

function budgetCell(measured, budgets) {
  const names = partNames();
  const files = measured.map((file) => names[file] ?? file);
  const exact = budgets.find(
    (budget) => budget.files.length === files.length && budget.files.every((file) => files.includes(file)),
  );
  if (exact) return `${formatNumber(exact.total)} / ${formatNumber(exact.brotli)}${exact.isOver ? ' OVER' : ' ok'}`;
  const group = budgets.find((budget) => files.length === 1 && budget.files.includes(files[0]));
  return group ? `in ${group.files.join(' + ')}` : '-';
}

export async function runSizePart() {
  ensureBuild();
  const sizes = measureCdn();
  const budgets = checkBudgets(sizes, readBudgets());
  const row = (name, files, size, budget) => ({ name, files, ...size, budget });
  const rows = [...sizes].map(([file, size]) => row(file, [file], size, budgetCell([file], budgets)));
  const extensions = [...sizes.keys()].filter((file) => file !== 'v0.js');
  for (const extension of extensions) {
    const files = ['v0.js', extension];
    rows.push(
      row(`v0.js + ${extension}`, files, sum(files.map((file) => sizes.get(file))), budgetCell(files, budgets)),
    );
  }
  for (const [name, files] of Object.entries(PEER_FILES)) {
    rows.push(row(name, files, sum(files.map((file) => measureBytes(readFileSync(`node_modules/${file}`)))), 'peer'));
  }
  const data = { rows, budgets };
  return {
    part: 'size',
    title: 'Size',
    description:
      'Bytes of each production file (deterministic: measured once). Budget: brotli bytes of the budget group of size-budgets.json, "total / budget".',
    tables: [
      {
        title: 'Bytes per file and per page set-up',
        columns: ['file or set', 'raw', 'gzip -9', 'brotli 11', 'brotli budget'],
        rows: rows.map((r) => [r.name, formatNumber(r.raw), formatNumber(r.gzip), formatNumber(r.brotli), r.budget]),
        notes: ['Source maps (.map) are not counted: pages never load them.'],
      },
    ],
    data,
  };
}
