// `npx tsx bench/consent/return-ab.mjs [runs] [fast|mobile] [variant,...]`: the consent part's own
// visit sequence (runConsentVisit: a first visit with Accept, a warm and a cold return visit, each
// run in a fresh context) for a few variants, interleaved run by run, and the medians of what
// the return visits cost: when the blocked script ran and the main-thread script time (CDP
// ScriptDuration), as a ratio to vanilla-cookieconsent's over control. Quicker than the whole
// part for a comparison of a few variants; not part of `npm run bench`. With BENCH_CDN_ROOT=<dir>
// our files come from another build's CDN tree (a copy of dist/cdn), to compare two builds.
import { launchBrowser } from '../browser/launch.mjs';
import { PROFILES } from '../browser/profiles.mjs';
import { startReferenceCdn } from '../browser/reference-cdn.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { blockedScriptUrl, serveConsentPages, VARIANTS } from './consent-pages.mjs';
import { runConsentVisit } from './consent-visit.mjs';

const runs = Number(process.argv[2] ?? 10);
const profileName = process.argv[3] ?? 'fast';
const names = (process.argv[4] ?? 'control,runtime-only,floor,ours,vanilla-cookieconsent').split(',');
const FIGURES = [
  ['warm: script runs ms', (run) => run.returns.warm.scriptMs],
  ['cold: script runs ms', (run) => run.returns.cold.scriptMs],
  ['warm: main-thread script ms', (run) => run.returns.warm.cost.scriptMs],
  ['cold: main-thread script ms', (run) => run.returns.cold.cost.scriptMs],
  ['first visit: main-thread script ms', (run) => run.first.scriptMs],
];
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const reference = await startReferenceCdn({ cdnRoot: process.env.BENCH_CDN_ROOT || undefined });
const server = await startStaticServer({ reference });
const urls = serveConsentPages(server, { isHidden: true });
const browser = await launchBrowser();
const results = Object.fromEntries(names.map((name) => [name, []]));
try {
  for (let run = 0; run < runs; run++)
    for (const name of run % 2 ? [...names].reverse() : names)
      results[name].push(
        await runConsentVisit(browser, {
          server,
          url: urls[name],
          variant: VARIANTS[name],
          profile: PROFILES[profileName],
          blockedUrl: blockedScriptUrl(server),
        }),
      );
} finally {
  await browser.close();
  await server.close();
  await reference.close();
}
const medians = Object.fromEntries(
  names.map((name) => [name, FIGURES.map(([, read]) => median(results[name].map(read)))]),
);
const xpeer = (name, index) => {
  const control = medians.control?.[index];
  const peer = medians['vanilla-cookieconsent']?.[index];
  if (control === undefined || peer === undefined) return '-';
  return ((medians[name][index] - control) / (peer - control)).toFixed(2);
};
console.log(`${runs} runs, ${profileName} profile: median (xpeer)\n`);
console.log(`| variant | ${FIGURES.map(([label]) => label).join(' | ')} |`);
console.log(`| --- |${FIGURES.map(() => ' ---: |').join('')}`);
for (const name of names)
  console.log(
    `| ${name} | ${medians[name].map((value, index) => `${value.toFixed(1)} (${xpeer(name, index)})`).join(' | ')} |`,
  );
