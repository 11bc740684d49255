// Generated article pages for the auto-ads part: `blocks` blocks, a heading every tenth, and the
// config of the scale measurement of docs/decisions/auto-ads-batched-placement.md: an ad AFTER every paragraph and BEFORE every heading
// (`all: true`), fake ads, the default constraints (1vp, 2vp from 3 ads, 3vp from 6, at most 8).
// Strategy "ours" uses <page-auto-ads>; "sequential" injects the bench baseline
// (sequential-placement.ts, bundled here with esbuild) instead.
import { build } from 'esbuild';

export const MAX_AD_COUNT = 8;

export function autoAdsConfig() {
  return {
    placements: [
      { anchor: { selector: 'article > p', all: true }, pos: 4, type: 1 },
      { anchor: { selector: 'article > h2', all: true }, pos: 1, type: 1 },
    ],
    attributes: { type: 'fake' },
    adConstraints: {
      initialMinSpacing: '1vp',
      subsequentMinSpacing: [
        { adCount: 3, spacing: '2vp' },
        { adCount: 6, spacing: '3vp' },
      ],
      maxAdCount: MAX_AD_COUNT,
    },
  };
}

export function article(blocks) {
  const parts = [];
  for (let index = 0; index < blocks; index++) {
    parts.push(
      index % 10 === 0
        ? `<h2>Section ${index / 10 + 1}</h2>`
        : `<p>Block ${index}: the council, the cycle path, the bridge and the budget, again and again.</p>`,
    );
  }
  return `<article>\n${parts.join('\n')}\n</article>`;
}

function page({ blocks, strategy, configUrl }) {
  const head =
    strategy === 'ours'
      ? '<script async custom-element="page-auto-ads" src="/v0/page-auto-ads-0.1.js"></script>'
      : `<script async src="/bench/sequential-placement.js" data-config-url="${configUrl}"></script>`;
  const element =
    strategy === 'ours' ? `<page-auto-ads type="custom" data-config-url="${configUrl}"></page-auto-ads>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <title>Auto ads: ${blocks} blocks</title>
  <script async src="/v0.js"></script>
  ${head}
  <style>body { font: 16px/1.5 sans-serif; margin: 0 auto; max-width: 44rem; padding: 1rem; }</style>
</head>
<body>${element}
${article(blocks)}
</body>
</html>
`;
}

export async function bundleSequentialPlacement() {
  const result = await build({
    entryPoints: ['bench/auto-ads/sequential-placement.ts'],
    bundle: true,
    format: 'iife',
    minify: true,
    write: false,
    define: { DEV: 'false', RELEASE: '"bench"' },
    target: ['chrome100'],
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** Registers the pages of every size and strategy; returns `url(size, strategy)`. */
export async function serveAutoAdsPages(server, sizes) {
  server.page('/bench/sequential-placement.js', await bundleSequentialPlacement(), 'text/javascript');
  const configUrl = '/auto-ads/config.json';
  server.page(configUrl, JSON.stringify(autoAdsConfig()), 'application/json');
  for (const { blocks } of sizes) {
    for (const strategy of ['ours', 'sequential']) {
      server.page(`/auto-ads/${blocks}-${strategy}.html`, page({ blocks, strategy, configUrl }));
    }
  }
  return ({ blocks }, strategy) => `${server.origin}/auto-ads/${blocks}-${strategy}.html`;
}
