// What one e2e test's page costs the tests' Chromium, measured the way the tests run it: the
// browser of test/browser-server.ts (its flags, launched as a server, reached over its WebSocket)
// and a loopback page. Three ways of getting a page for a test, side by side in one run:
// - a fresh context and page, closed after (what every e2e test does: its own storage, cookies,
//   cache and window);
// - a new page in a context kept from test to test (its own window is kept; storage is shared);
// - one page kept and navigated again (storage and the page's own state are shared).
// Per page: the wall time, the processor time of every process of the browser (reaped children
// included, read from /proc) and their page faults, each the mean of a batch of pages.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { featureFlags, launchOptions } from '../../test/browser-server.ts';
import { formatNumber, formatSummary } from '../lib/format.mjs';
import { ratio, summarize } from '../lib/stats.mjs';

/** Pages per measured batch. */
const BATCH = 5;
const TICKS_PER_SECOND = 100;
const PAGE =
  '<!doctype html><html lang="en"><title>test</title><p>page</p><script>document.body.append(location.search)</script>';

/** Processor ms and page faults of `root` and its descendants, by process kind (`--type=`), reaped children counted in their parent. */
function treeUsage(root) {
  const children = new Map();
  const usage = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${name}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      const parent = Number(fields[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      usage.set(Number(name), {
        kind,
        ms: (ticks * 1000) / TICKS_PER_SECOND,
        faults: Number(fields[7]) + Number(fields[8]),
      });
    } catch {}
  }
  const total = { browser: 0, renderers: 0, gpu: 0, other: 0, faults: 0 };
  for (const stack = [root]; stack.length; ) {
    const pid = stack.pop();
    const own = usage.get(pid);
    if (own) {
      // A renderer is forked by the zygote: its time lands in the zygote's once it is reaped.
      const group =
        own.kind === 'browser'
          ? 'browser'
          : own.kind === 'renderer' || own.kind === 'zygote'
            ? 'renderers'
            : own.kind === 'gpu-process'
              ? 'gpu'
              : 'other';
      total[group] += own.ms;
      total.faults += own.faults;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

const VARIANTS = {
  'fresh context': async (browser, url) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await page.evaluate(() => document.title);
    await context.close();
  },
  'new page, kept context': async (browser, url, kept) => {
    const page = await kept.context.newPage();
    await page.goto(url);
    await page.evaluate(() => document.title);
    await page.close();
  },
  'kept page': async (browser, url, kept) => {
    await kept.page.goto('about:blank');
    await kept.context.clearCookies();
    await kept.page.goto(url);
    await kept.page.evaluate(() => document.title);
  },
};

export async function runTestPagePart(options) {
  const server = createServer((request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
  );
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/page`;
  const launch = await chromium.launchServer(launchOptions([], await featureFlags(launchOptions())));
  const browser = await chromium.connect(launch.wsEndpoint());
  const figures = Object.fromEntries(
    Object.keys(VARIANTS).map((name) => [
      name,
      { ms: [], browser: [], renderers: [], gpu: [], other: [], cpu: [], faults: [] },
    ]),
  );
  try {
    const context = await browser.newContext();
    const kept = { context, page: await context.newPage() };
    for (const name of Object.keys(VARIANTS))
      for (let warm = 0; warm < 2; warm++) await VARIANTS[name](browser, `${url}?warm`, kept);
    const names = Object.keys(VARIANTS);
    for (let run = 0; run < options.runs; run++) {
      // The order of the variants turns each run, so no variant always follows the same one.
      for (const name of names.map((_, index) => names[(index + run) % names.length])) {
        const before = treeUsage(launch.process().pid);
        const began = performance.now();
        for (let index = 0; index < BATCH; index++) await VARIANTS[name](browser, `${url}?${run}-${index}`, kept);
        const ms = (performance.now() - began) / BATCH;
        const after = treeUsage(launch.process().pid);
        const figure = figures[name];
        figure.ms.push(ms);
        for (const key of ['browser', 'renderers', 'gpu', 'other', 'faults'])
          figure[key].push((after[key] - before[key]) / BATCH);
        figure.cpu.push(
          ['browser', 'renderers', 'gpu', 'other'].reduce((sum, key) => sum + after[key] - before[key], 0) / BATCH,
        );
      }
    }
  } finally {
    await browser.close();
    await launch.close();
    server.close();
  }
  const median = (name, key) => summarize(figures[name][key]).median;
  const row = (name) => [
    name,
    formatSummary(summarize(figures[name].ms), 0),
    formatSummary(summarize(figures[name].cpu), 0),
    ['browser', 'renderers', 'gpu', 'other'].map((key) => formatNumber(median(name, key), 0)).join(' · '),
    formatNumber(median(name, 'faults'), 0),
    formatNumber(ratio(median(name, 'cpu'), median('fresh context', 'cpu')), 2),
  ];
  return {
    part: 'test-page',
    title: "One e2e test's page: what it costs the tests' Chromium",
    description:
      "The tests' browser (test/browser-server.ts: its flags, launched as a server and reached over its WebSocket), a loopback page with one line of script; per page a `goto` and one `evaluate`. " +
      `Three ways of getting a test its page, in turn: a fresh context and page, closed after (what every e2e test does); a new page in a context kept throughout; one page kept, emptied with \`about:blank\` and its cookies cleared. ` +
      `Each run is a batch of ${BATCH} pages per way; the figures are per page: wall ms, the processor ms of all the browser's processes (renderers counted with the zygote that forks them) and their page faults. ${options.runs} runs.`,
    tables: [
      {
        title: 'Per test page',
        columns: [
          'way',
          'ms (median / p90)',
          'CPU ms (median / p90)',
          'CPU ms: browser · renderers · GPU · other',
          'page faults',
          'CPU x fresh',
        ],
        rows: Object.keys(VARIANTS).map(row),
      },
    ],
  };
}
