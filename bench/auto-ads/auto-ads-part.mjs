// Part "auto-ads": generated pages of 100, 1,000 and 10,000 blocks, every block a candidate
// (the scale measurement of docs/decisions/auto-ads-batched-placement.md); <page-auto-ads> ("ours") against the sequential baseline,
// interleaved run by run, at 1024x768.
import { launchBrowser } from '../browser/launch.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { ensureBuild } from '../size/ensure-build.mjs';
import { formatNumber, formatSummary } from '../lib/format.mjs';
import { ratio, summarize } from '../lib/stats.mjs';
import { MAX_AD_COUNT, serveAutoAdsPages } from './auto-ads-pages.mjs';
import { runAutoAdsVisit } from './auto-ads-visit.mjs';
import { FORMATS_VIEWPORT, RAIL_BLOCKS, runRailsVisit, runVignetteVisit, serveFormatPages } from './formats.mjs';

export const SIZES = [{ blocks: 100 }, { blocks: 1000 }, { blocks: 10000 }];
const VIEWPORT = { width: 1024, height: 768 };
const STRATEGIES = ['ours', 'sequential'];
const FIGURES = [
  'scriptMs',
  'mainThreadMs',
  'wallMs',
  'layouts',
  'forcedLayouts',
  'forcedStyleRecalcs',
  'longestTaskMs',
  'adsPlaced',
  'layoutShift',
];

/** Runs of `ours` that put their ads exactly where the sequential baseline's first run did. */
function countSameAds(ours, sequential) {
  const reference = sequential.find((run) => !run.error)?.ads;
  if (!reference) return '-';
  const valid = ours.filter((run) => !run.error);
  return `${valid.filter((run) => JSON.stringify(run.ads) === JSON.stringify(reference)).length}/${valid.length}`;
}

function buildRows(results, sizes) {
  return sizes.flatMap((size) => {
    const label = formatNumber(size.blocks);
    const summaries = Object.fromEntries(
      STRATEGIES.map((strategy) => {
        const runs = results[size.blocks][strategy].filter((run) => !run.error);
        return [
          strategy,
          {
            runs: results[size.blocks][strategy],
            figures: Object.fromEntries(FIGURES.map((figure) => [figure, summarize(runs.map((run) => run[figure]))])),
          },
        ];
      }),
    );
    const versus = ratio(summaries.ours.figures.scriptMs.median, summaries.sequential.figures.scriptMs.median);
    const same = countSameAds(summaries.ours.runs, summaries.sequential.runs);
    return STRATEGIES.map((strategy) => {
      const { runs, figures } = summaries[strategy];
      const failed = runs.filter((run) => run.error).length;
      return [
        label,
        strategy,
        ...FIGURES.map((figure) => formatSummary(figures[figure], figure === 'layoutShift' ? 3 : undefined)),
        strategy === 'ours' ? `${formatNumber(versus, 2)}x` : '1x',
        strategy === 'ours' ? same : '-',
        `${runs.length - failed}${failed ? ` (${failed} failed)` : ''}`,
      ];
    });
  });
}

/** The overlay formats' rows: side rails on the big page against the same page without them, and the vignette. */
function buildFormatRows(formats) {
  const summary = (runs, figure) => summarize(runs.filter((run) => !run.error).map((run) => run[figure]));
  const railRow = (label, runs) => [
    label,
    formatSummary(summary(runs, 'scriptMs')),
    formatSummary(summary(runs, 'mainThreadMs')),
    formatSummary(summary(runs, 'adsPlaced')),
    formatSummary(summary(runs, 'rails')),
    formatSummary(summary(runs, 'layoutShift'), 3),
    '-',
    String(runs.filter((run) => !run.error).length),
  ];
  const vignette = formats.vignette;
  return [
    railRow(`${formatNumber(RAIL_BLOCKS)} blocks, in-content ads`, formats.inContent),
    railRow(`${formatNumber(RAIL_BLOCKS)} blocks, side rails only`, formats.rails),
    [
      'vignette: click on a same-site link to the overlay on screen',
      formatSummary(summary(vignette, 'scriptMs')),
      formatSummary(summary(vignette, 'mainThreadMs')),
      '-',
      '-',
      '-',
      formatSummary(summary(vignette, 'clickToVisibleMs')),
      String(vignette.filter((run) => !run.error).length),
    ],
  ];
}

/** The overlay formats, interleaved run by run. */
async function runFormats(browser, server, runs) {
  const urls = serveFormatPages(server);
  const formats = { inContent: [], rails: [], vignette: [] };
  const visits = {
    inContent: () => runRailsVisit(browser, { url: urls.inContent, rails: 0 }),
    rails: () => runRailsVisit(browser, { url: urls.rails, rails: 2 }),
    vignette: () => runVignetteVisit(browser, { url: urls.visit }),
  };
  for (let run = 0; run < runs; run++) {
    const order = Object.keys(visits);
    for (const name of run % 2 ? order.reverse() : order) {
      const result = await visits[name]().catch((error) => ({ error: String(error.message ?? error).split('\n')[0] }));
      if (result.error) console.warn(`auto-ads: formats ${name} run ${run + 1}: ${result.error}`);
      formats[name].push(result);
    }
    process.stdout.write(`auto-ads: formats run ${run + 1}/${runs}\r`);
  }
  return formats;
}

export async function runAutoAdsPart({ runs, quick }) {
  ensureBuild();
  const sizes = quick ? SIZES.slice(0, 2) : SIZES;
  const server = await startStaticServer();
  const urlOf = await serveAutoAdsPages(server, sizes);
  const browser = await launchBrowser();
  let formats;
  const results = Object.fromEntries(sizes.map((size) => [size.blocks, { ours: [], sequential: [] }]));
  try {
    for (let run = 0; run < runs; run++) {
      for (const size of sizes) {
        for (const strategy of run % 2 ? [...STRATEGIES].reverse() : STRATEGIES) {
          const result = await runAutoAdsVisit(browser, { url: urlOf(size, strategy), viewport: VIEWPORT }).catch(
            (error) => ({
              error: String(error.message ?? error).split('\n')[0],
            }),
          );
          if (result.error) console.warn(`auto-ads: ${size.blocks} ${strategy} run ${run + 1}: ${result.error}`);
          results[size.blocks][strategy].push(result);
        }
      }
      process.stdout.write(`auto-ads: run ${run + 1}/${runs}\r`);
    }
    formats = await runFormats(browser, server, runs);
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    part: 'auto-ads',
    title: 'Auto-ads placement scaling',
    description: `Chromium ${browser.version()}, headless, ${VIEWPORT.width}x${VIEWPORT.height}, no throttling; placements AFTER every paragraph and BEFORE every heading (all: true), fake ads, maxAdCount ${MAX_AD_COUNT}, spacing 1vp / 2vp from 3 ads / 3vp from 6 ads; window from the later of the config response and the end of parsing to the first ads-placed event; ${runs} runs per strategy and size, interleaved.`,
    tables: [
      {
        title: 'Placement decision',
        columns: [
          'blocks',
          'strategy',
          'script ms',
          'main-thread ms',
          'wall ms',
          'layouts',
          'forced layouts',
          'forced style recalcs',
          'longest task after parse ms',
          'ads placed',
          'CLS',
          'script vs sequential',
          'same ads',
          'runs',
        ],
        rows: buildRows(results, sizes),
        notes: [
          "Each cell: median / p90. Forced = inside script (a layout read after a write), not the frame's own rendering.",
          "Same ads: runs of ours whose ads sit between the same blocks as in the sequential baseline's first run.",
        ],
      },
      {
        title: `Overlay formats, ${FORMATS_VIEWPORT.width}x${FORMATS_VIEWPORT.height}`,
        columns: [
          'page',
          'script ms',
          'main-thread ms',
          'ads placed',
          'side rails',
          'CLS',
          'click -> overlay ms',
          'runs',
        ],
        rows: buildFormatRows(formats),
        notes: [
          `Side rails: the scale page of ${formatNumber(RAIL_BLOCKS)} blocks and its config in a <main> of 44rem, and the same page with a config of one sideRail placement (both sides, 300 px) instead; script and main-thread time of the whole page view, from the navigation until the first ads-placed event (in-content) or both rails in place, and 500 ms of quiet.`,
          'Vignette: the second page of a visit (reached by a same-site link), settled; then a click on a same-site link: script and main-thread time from just before the click until the first frame with the vignette dialog open, fake ads.',
          'Each cell: median / p90.',
        ],
      },
    ],
    data: { sizes, maxAdCount: MAX_AD_COUNT, runs: results, formats },
  };
}
