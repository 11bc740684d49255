// Builds the CDN tree: dist/cdn (production: minified, dev-only diagnostics stripped) and
// dist/cdn-dev (development: readable, with dev assertions), both with source maps; and the
// reference server as one file (dist/server/main.mjs, scripts/build-server.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { minify } from 'terser';
import { buildExampleLibraries } from './build-examples.mjs';
import { buildServer } from './build-server.mjs';

const ENTRIES = [
  ['src/runtime/entry.ts', 'v0'],
  // Parts of v0.js, loaded from v0/ when a page first needs them (docs/decisions/first-screen-parts.md).
  ['src/runtime/parts/actions.ts', 'v0/page-runtime-actions-0.1'],
  ['src/runtime/parts/macros.ts', 'v0/page-runtime-macros-0.1'],
  ['src/runtime/parts/elements.ts', 'v0/page-runtime-elements-0.1'],
  ['src/runtime/parts/change-size.ts', 'v0/page-runtime-change-size-0.1'],
  ['src/runtime/parts/viewport.ts', 'v0/page-runtime-viewport-0.1'],
  ['src/runtime/parts/consent-api.ts', 'v0/page-runtime-consent-api-0.1'],
  ['src/consent/entry.ts', 'v0/page-consent-0.1'],
  // Parts of page-consent-0.1.js (src/consent/parts.ts); page-consent-fast is the inline return-visit copy.
  ['src/consent/parts/remote.ts', 'v0/page-consent-remote-0.1'],
  ['src/consent/parts/signals.ts', 'v0/page-consent-signals-0.1'],
  ['src/consent/parts/story.ts', 'v0/page-consent-story-0.1'],
  ['src/consent/parts/presets.ts', 'v0/page-consent-presets-0.1'],
  ['src/consent/parts/creative.ts', 'v0/page-consent-creative-0.1'],
  ['src/consent/parts/stored.ts', 'v0/page-consent-stored-0.1'],
  ['src/consent/parts/state.ts', 'v0/page-consent-state-0.1'],
  ['src/consent/parts/record.ts', 'v0/page-consent-record-0.1'],
  ['src/consent/parts/frame.ts', 'v0/page-consent-frame-0.1'],
  ['src/consent/parts/geo.ts', 'v0/page-consent-geo-0.1'],
  ['src/auto-ads/entry.ts', 'v0/page-auto-ads-0.1'],
  ['src/geo/entry.ts', 'v0/page-geo-0.1'],
  ['src/consent-tcf/entry.ts', 'v0/page-consent-tcf-0.1'],
  ['src/consent-gpp/entry.ts', 'v0/page-consent-gpp-0.1'],
  ['src/consent-bounds/entry.ts', 'v0/page-consent-bounds-0.1'],
  ['src/consent-cmp/entry.ts', 'v0/page-consent-cmp-0.1'],
  ['src/consent-fast/entry.ts', 'v0/page-consent-fast-0.1'],
  ['src/consent-stub/entry.ts', 'v0/page-consent-stub-0.1'],
  // The reference server's hosted consent prompt (served at /cmp/): first layer, then second, then GPP.
  ['src/hosted-cmp/prompt-entry.ts', 'cmp/prompt-0.1'],
  ['src/hosted-cmp/details-entry.ts', 'cmp/details-0.1'],
  ['src/hosted-cmp/gpp-entry.ts', 'cmp/gpp-0.1'],
];

// The release: a hash of the source tree, so that a return record written by another release is
// not replayed (src/wire/return-record.ts).
const release = createHash('sha256');
for (const file of readdirSync('src', { recursive: true }).sort()) if (/\.ts$/.test(file)) release.update(file).update(readFileSync(join('src', file)));
const RELEASE = JSON.stringify(release.digest('base64url').slice(0, 8));

const entryPoints = ENTRIES.filter(([source]) => existsSync(source)).map(([source, out]) => ({ in: source, out }));
// The head stub is meant to be inlined: its map is written, but no comment pointing at it.
const isInlined = (entry) => entry.out === 'v0/page-consent-stub-0.1';

async function buildTree(outdir, isDev) {
  rmSync(outdir, { recursive: true, force: true });
  await Promise.all([buildEntries(outdir, isDev, entryPoints.filter((entry) => !isInlined(entry)), true), buildEntries(outdir, isDev, entryPoints.filter(isInlined), 'external')]);
  if (!isDev) await Promise.all(scriptsIn(outdir).map(compact));
}

const scriptsIn = (dir) => readdirSync(dir, { recursive: true }).filter((file) => file.endsWith('.js')).map((file) => join(dir, file));

/**
 * A second minifier pass over each production file: terser finds about 5% more than esbuild's
 * minifier (brotli bytes of the first screen; docs/decisions/first-screen-parts.md), with its
 * default, semantics-preserving transforms only. The source map is carried through.
 */
async function compact(file) {
  const code = readFileSync(file, 'utf8');
  const mapUrl = code.match(/\n\/\/# sourceMappingURL=(\S+)\s*$/)?.[1];
  const mapFile = `${file}.map`;
  const result = await minify(code, {
    ecma: 2020,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
    sourceMap: { content: readFileSync(mapFile, 'utf8'), ...(mapUrl && { url: mapUrl }) },
  });
  writeFileSync(file, `${result.code}\n`);
  writeFileSync(mapFile, result.map);
}

async function buildEntries(outdir, isDev, entries, sourcemap) {
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
    define: { DEV: String(isDev), RELEASE },
    logLevel: 'warning',
  });
}

await Promise.all([buildTree('dist/cdn', false), buildTree('dist/cdn-dev', true), buildExampleLibraries(), buildServer()]);
console.log(`built ${entryPoints.map((entry) => entry.out).join(', ')}, server/main.mjs`);
