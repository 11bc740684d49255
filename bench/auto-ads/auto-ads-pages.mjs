// Generated article pages for the auto-ads part: `blocks` alternating headings and paragraphs,
// every (blocks / candidates)-th one a candidate (class "slot"), and a config with one
// placement after every slot. Strategy "ours" uses <page-auto-ads>; "sequential" injects the
// bench baseline (sequential-placement.ts, bundled here with esbuild) instead.
import { build } from 'esbuild';

export const MAX_AD_COUNT = 50;

export function autoAdsConfig() {
  return {
    placements: [{ anchor: { selector: 'article > .slot', all: true }, pos: 4, type: 1 }],
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

function article(blocks, candidates) {
  const every = Math.max(1, Math.floor(blocks / candidates));
  const parts = [];
  for (let index = 0; index < blocks; index++) {
    const slot = index % every === every - 1 && (index + 1) / every <= candidates ? ' class="slot"' : '';
    parts.push(
      index % 10 === 0
        ? `<h2${slot}>Section ${index / 10 + 1}</h2>`
        : `<p${slot}>Block ${index}: the council, the cycle path, the bridge and the budget, again and again.</p>`,
    );
  }
  return `<article>\n${parts.join('\n')}\n</article>`;
}

function page({ blocks, candidates, strategy, configUrl }) {
  const head =
    strategy === 'ours'
      ? '<script async custom-element="page-auto-ads" src="/v0/page-auto-ads-0.1.js"></script>'
      : `<script async src="/bench/sequential-placement.js" data-config-url="${configUrl}"></script>`;
  const element = strategy === 'ours' ? `<page-auto-ads type="custom" data-config-url="${configUrl}"></page-auto-ads>` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <title>Auto ads: ${blocks} blocks, ${candidates} candidates</title>
  <script async src="/v0.js"></script>
  ${head}
  <style>body { font: 16px/1.5 sans-serif; margin: 0 auto; max-width: 44rem; padding: 1rem; }</style>
</head>
<body>${element}
${article(blocks, candidates)}
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
    define: { DEV: 'false' },
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
  for (const { blocks, candidates } of sizes) {
    for (const strategy of ['ours', 'sequential']) {
      server.page(`/auto-ads/${blocks}-${strategy}.html`, page({ blocks, candidates, strategy, configUrl }));
    }
  }
  return ({ blocks }, strategy) => `${server.origin}/auto-ads/${blocks}-${strategy}.html`;
}
