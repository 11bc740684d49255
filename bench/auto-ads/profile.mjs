// `npx tsx bench/auto-ads/profile.mjs [blocks] [runs] [strategy]`: loads one generated auto-ads page
// (auto-ads-pages.mjs, default 10,000 blocks, strategy `ours`) under the CDP sampling profiler,
// profiling only the bench's window (from the later of the config response and the end of
// parsing to the first `ads-placed`), and prints the self time per script and the functions with
// the most of it, averaged over the runs. Not part of `npm run bench`.
import { launchBrowser } from '../browser/launch.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { addSelfTimes, printSelfTimes } from '../lib/cpu-profile.mjs';
import { ensureBuild } from '../size/ensure-build.mjs';
import { serveAutoAdsPages } from './auto-ads-pages.mjs';
import { installPlacementProbe } from './placement-probe.mjs';

const blocks = Number(process.argv[2] ?? 10000);
const runs = Number(process.argv[3] ?? 5);
const strategy = process.argv[4] ?? 'ours';

/** Runs in the page: a console profile over the bench window. */
function profileWindow() {
  if (window !== window.top) return;
  let pending = 2;
  const start = () => --pending === 0 && console.profile('window');
  document.addEventListener('DOMContentLoaded', start);
  const originalFetch = window.fetch;
  window.fetch = function (...args) {
    const response = originalFetch.apply(this, args);
    if (String(args[0]?.url ?? args[0]).includes('/auto-ads/config')) response.then(start);
    return response;
  };
  document.addEventListener('ads-placed', () => console.profileEnd('window'), { capture: true, once: true });
}

ensureBuild();
const server = await startStaticServer();
const urlOf = await serveAutoAdsPages(server, [{ blocks }]);
const browser = await launchBrowser();
const selfMs = new Map();
let totalMs = 0;
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await page.addInitScript(installPlacementProbe);
    await page.addInitScript(profileWindow);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    const finished = new Promise((resolve) =>
      cdp.once('Profiler.consoleProfileFinished', ({ profile }) => resolve(profile)),
    );
    await page.goto(urlOf({ blocks }, strategy), { waitUntil: 'commit' });
    const profile = await finished;
    totalMs += addSelfTimes(selfMs, profile, { runs, withoutUrl: true });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(
  `${strategy}, ${blocks} blocks, ${runs} runs: ${totalMs.toFixed(1)} ms sampled in the window; self time per script`,
);
printSelfTimes(selfMs, { scripts: 12, functions: 30 });
