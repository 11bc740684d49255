// Builds the CDN tree: dist/cdn (production: minified, dev-only diagnostics stripped) and
// dist/cdn-dev (development: readable, with dev assertions), both with source maps and the same
// content-hashed part names (scripts/part-names.mjs); the reference server as one file
// (dist/server/main.mjs, scripts/build-server.mjs), and its admin dashboard's script (dist/admin).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { minify } from 'terser';
import { buildExampleLibraries } from './build-examples.mjs';
import { buildServer } from './build-server.mjs';
import { EAGER_FILES, withCompileHint } from './compile-hints.mjs';
import { buildWithPartNames, readPreviousParts } from './part-names.mjs';

// [source, output, ...the bundles that load it]: an entry that bundles load is a lazily loaded
// part, written under a name with the hash of its bundle's parts (`v0/page-runtime-actions.<hash>.js`,
// scripts/part-names.mjs and docs/decisions/part-names.md); the others are the files that pages
// name, and keep their names.
const ENTRIES = [
  ['src/runtime/v0.ts', 'v0'],
  // Parts of v0.js, loaded from v0/ when a page first needs them (docs/decisions/first-screen-parts.md).
  ['src/runtime/parts/page-runtime-actions.ts', 'v0/page-runtime-actions', 'v0'],
  ['src/runtime/parts/page-runtime-macros.ts', 'v0/page-runtime-macros', 'v0'],
  ['src/runtime/parts/page-runtime-elements.ts', 'v0/page-runtime-elements', 'v0'],
  ['src/runtime/parts/page-runtime-change-size.ts', 'v0/page-runtime-change-size', 'v0'],
  ['src/runtime/parts/page-runtime-viewport.ts', 'v0/page-runtime-viewport', 'v0'],
  ['src/runtime/parts/page-runtime-consent-api.ts', 'v0/page-runtime-consent-api', 'v0'],
  ['src/consent/page-consent.ts', 'v0/page-consent-0.1'],
  // Parts of page-consent-0.1.js (src/consent/parts.ts); page-consent-fast is the inline return-visit copy.
  ['src/consent/parts/page-consent-remote.ts', 'v0/page-consent-remote', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-story.ts', 'v0/page-consent-story', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-presets.ts', 'v0/page-consent-presets', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-creative.ts', 'v0/page-consent-creative', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-state.ts', 'v0/page-consent-state', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-frame.ts', 'v0/page-consent-frame', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-geo.ts', 'v0/page-consent-geo', 'v0/page-consent-0.1'],
  ['src/consent/parts/page-consent-opt-out.ts', 'v0/page-consent-opt-out', 'v0/page-consent-0.1'],
  ['src/auto-ads/page-auto-ads.ts', 'v0/page-auto-ads-0.1'],
  // Parts of page-auto-ads-0.1.js, for a config with such a placement only (src/auto-ads/parts.ts).
  ['src/auto-ads/parts/page-auto-ads-vignette.ts', 'v0/page-auto-ads-vignette', 'v0/page-auto-ads-0.1'],
  ['src/auto-ads/parts/page-auto-ads-side-rail.ts', 'v0/page-auto-ads-side-rail', 'v0/page-auto-ads-0.1'],
  ['src/auto-ads/parts/page-auto-ads-experiment.ts', 'v0/page-auto-ads-experiment', 'v0/page-auto-ads-0.1'],
  ['src/geo/page-geo.ts', 'v0/page-geo-0.1'],
  ['src/consent-tcf/page-consent-tcf.ts', 'v0/page-consent-tcf-0.1'],
  ['src/consent-gpp/page-consent-gpp.ts', 'v0/page-consent-gpp-0.1'],
  // Loaded by the state part's signals beside the TCF and GPP bundles (src/consent/signals.ts).
  ['src/consent-bounds/page-consent-bounds.ts', 'v0/page-consent-bounds', 'v0/page-consent-state'],
  ['src/consent-cmp/page-consent-cmp.ts', 'v0/page-consent-cmp-0.1'],
  ['src/consent-fast/page-consent-fast.ts', 'v0/page-consent-fast-0.1'],
  ['src/consent-stub/page-consent-stub.ts', 'v0/page-consent-stub-0.1'],
  // The reference server's hosted consent prompt (served at /cmp/): first layer, then second, then GPP.
  ['src/hosted-cmp/prompt-entry.ts', 'cmp/prompt-0.1'],
  ['src/hosted-cmp/details-entry.ts', 'cmp/details-0.1'],
  ['src/hosted-cmp/gpp-entry.ts', 'cmp/gpp-0.1'],
];

// The release: a hash of the source tree, so that a return record written by another release is
// not replayed (src/wire/return-record.ts).
const release = createHash('sha256');
for (const file of readdirSync('src', { recursive: true }).sort())
  if (/\.ts$/.test(file)) release.update(file).update(readFileSync(join('src', file)));
const RELEASE = JSON.stringify(release.digest('base64url').slice(0, 8));

// Every entry must exist: a missing one would leave its bundle out of the tree without a word.
const missing = ENTRIES.filter(([source]) => !existsSync(source)).map(([source, out]) => `${source} (${out})`);
if (missing.length > 0) {
  console.error(`build: entry not found: ${missing.join(', ')}`);
  process.exit(1);
}
const built = ENTRIES;
const entryPoints = built.map(([source, out]) => ({
  in: source,
  out,
  loads: built.filter(([, , ...loaders]) => loaders.includes(out)).map(([, part]) => part),
}));
// The head stub is meant to be inlined: its map is written, but no comment pointing at it.
const isInlined = (entry) => entry.out === 'v0/page-consent-stub-0.1';

/**
 * Production files name no source map: the map is beside each file, and the reference server
 * names it in a `SourceMap` header (docs/decisions/part-names.md). The development files keep the
 * comment. The parts of the previous build stay: pages whose entry files came from it still ask
 * for them.
 */
async function buildTree(outdir, isDev) {
  const previous = readPreviousParts(outdir);
  rmSync(outdir, { recursive: true, force: true });
  await buildWithPartNames({
    outdir,
    previous,
    entries: entryPoints,
    buildEntry: async ({ in: source, out }, parts) => {
      await buildEntries(outdir, isDev, [{ in: source, out }], isDev && !isInlined({ out }) ? true : 'external', parts);
      if (!isDev) await compact(join(outdir, `${out}.js`), EAGER_FILES.has(out));
    },
  });
}

/**
 * A second minifier pass over each production file: terser finds about 5% more than esbuild's
 * minifier (brotli bytes of the first screen; bench/results/first-screen-parts.md), with
 * semantics-preserving transforms only: its defaults, a third pass, function declarations
 * hoisted, and three transforms turned off that made the first screen larger after brotli
 * (docs/decisions/part-names.md). The source map is carried through.
 */
async function compact(file, isEager) {
  const code = readFileSync(file, 'utf8');
  const mapFile = `${file}.map`;
  const result = await minify(code, {
    ecma: 2020,
    compress: { passes: 3, hoist_funs: true, sequences: false, inline: 1, conditionals: false },
    mangle: true,
    format: { comments: false },
    sourceMap: { content: readFileSync(mapFile, 'utf8') },
  });
  // The files a page runs at once start with V8's compile hint (scripts/compile-hints.mjs).
  const out = isEager ? withCompileHint(result.code, result.map) : result;
  writeFileSync(file, `${out.code}\n`);
  writeFileSync(mapFile, out.map);
}

/** `parts`: the prefix, hash and names of the parts the entries load (`PART_PREFIX`, `PART_HASH`, `PART_NAMES`: src/browser-shared/parts.ts). */
async function buildEntries(outdir, isDev, entries, sourcemap, parts) {
  if (!entries.length) return;
  await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    format: 'iife',
    target: ['chrome100', 'firefox100', 'safari15.4'],
    minify: !isDev,
    sourcemap,
    legalComments: 'none',
    define: {
      DEV: String(isDev),
      RELEASE,
      PART_PREFIX: JSON.stringify(parts.prefix),
      PART_HASH: JSON.stringify(parts.hash),
      PART_NAMES: JSON.stringify(parts.names),
    },
    logLevel: 'warning',
  });
}

/**
 * The reference server's admin dashboard script (server/pages/admin.html loads it from
 * `/admin/admin-0.1.js`): the server's own file, not the CDN tree's, so it is written to
 * dist/admin, minified, its source map named by the server's `SourceMap` header.
 */
async function buildAdmin() {
  await build({
    entryPoints: [{ in: 'src/admin/admin-page.ts', out: 'admin-0.1' }],
    outdir: 'dist/admin',
    bundle: true,
    format: 'iife',
    target: ['chrome100', 'firefox100', 'safari15.4'],
    minify: true,
    sourcemap: 'external',
    legalComments: 'none',
    logLevel: 'warning',
  });
}

await Promise.all([
  buildTree('dist/cdn', false),
  buildTree('dist/cdn-dev', true),
  buildExampleLibraries(),
  buildServer(),
  buildAdmin(),
]);
console.log(`built ${entryPoints.map((entry) => entry.out).join(', ')}, server/main.mjs, admin/admin-0.1.js`);
