// Builds the CDN tree: dist/cdn (production: minified, dev-only diagnostics stripped) and
// dist/cdn-dev (development: readable, with dev assertions). Both with source maps.
import { existsSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const ENTRIES = [
  ['src/runtime/entry.ts', 'v0'],
  ['src/consent/entry.ts', 'v0/page-consent-0.1'],
  ['src/auto-ads/entry.ts', 'v0/page-auto-ads-0.1'],
  ['src/geo/entry.ts', 'v0/page-geo-0.1'],
  ['src/consent-tcf/entry.ts', 'v0/page-consent-tcf-0.1'],
  ['src/consent-gpp/entry.ts', 'v0/page-consent-gpp-0.1'],
  ['src/consent-cmp/entry.ts', 'v0/page-consent-cmp-0.1'],
  ['src/consent-fast/entry.ts', 'v0/page-consent-fast-0.1'],
  // The reference server's hosted consent prompt (served at /cmp/): first layer, then second.
  ['src/hosted-cmp/prompt-entry.ts', 'cmp/prompt-0.1'],
  ['src/hosted-cmp/details-entry.ts', 'cmp/details-0.1'],
];

const entryPoints = ENTRIES.filter(([source]) => existsSync(source)).map(([source, out]) => ({ in: source, out }));

async function buildTree(outdir, isDev) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir,
    bundle: true,
    format: 'iife',
    target: ['chrome100', 'firefox100', 'safari15.4'],
    minify: !isDev,
    sourcemap: true,
    legalComments: 'none',
    define: { DEV: String(isDev) },
    logLevel: 'warning',
  });
}

await Promise.all([buildTree('dist/cdn', false), buildTree('dist/cdn-dev', true)]);
console.log(`built ${entryPoints.map((entry) => entry.out).join(', ')}`);
