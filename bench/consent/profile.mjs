// `npx tsx bench/consent/profile.mjs [variant] [runs] [first|return]`: loads one consent article page
// (a variant of consent-pages.mjs, default `ours`; first visits in a fresh context each, or return
// visits after a first visit that accepted) under the CDP sampling profiler and prints the self time per script and the functions with the most of it, averaged
// over the runs. Minified names: look them up at the printed column of the built file. Not part
// of `npm run bench`.
import { launchBrowser } from '../browser/launch.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { addSelfTimes, printSelfTimes } from '../lib/cpu-profile.mjs';
import { serveConsentPages, VARIANTS } from './consent-pages.mjs';

const variant = process.argv[2] ?? 'ours';
const runs = Number(process.argv[3] ?? 5);
const visit = process.argv[4] ?? 'first';
const server = await startStaticServer();
const urls = serveConsentPages(server, { isHidden: true });
const browser = await launchBrowser();
const selfMs = new Map();
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext();
    if (visit === 'return') {
      const first = await context.newPage();
      await first.goto(urls[variant], { waitUntil: 'load' });
      await first.click(VARIANTS[variant].accept);
      await first.waitForTimeout(300);
      await first.close();
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await page.goto(urls[variant], { waitUntil: 'load' });
    await page.waitForTimeout(500);
    const { profile } = await cdp.send('Profiler.stop');
    addSelfTimes(selfMs, profile, { runs, withoutUrl: false });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${variant}, ${runs} ${visit} visits: self time per script`);
printSelfTimes(selfMs, { scripts: 20, functions: 25 });
