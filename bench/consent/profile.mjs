// `node bench/consent/profile.mjs [variant] [runs] [first|return]`: loads one consent article page
// (a variant of consent-pages.mjs, default `ours`; first visits in a fresh context each, or return
// visits after a first visit that accepted) under the CDP sampling profiler and prints the self time per script and the functions with the most of it, averaged
// over the runs. Minified names: look them up at the printed column of the built file. Not part
// of `npm run bench`.
import { launchBrowser } from '../browser/launch.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
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
    const byNode = new Map();
    for (const [index, id] of profile.samples.entries()) byNode.set(id, (byNode.get(id) ?? 0) + profile.timeDeltas[index] / 1000);
    for (const { id, callFrame } of profile.nodes) {
      if (!callFrame.url || !byNode.has(id)) continue;
      const key = `${callFrame.url.split('/').pop()} ${callFrame.functionName || '(top level)'} @${callFrame.lineNumber + 1}:${callFrame.columnNumber + 1}`;
      selfMs.set(key, (selfMs.get(key) ?? 0) + byNode.get(id) / runs);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
const perScript = new Map();
for (const [key, ms] of selfMs) perScript.set(key.split(' ')[0], (perScript.get(key.split(' ')[0]) ?? 0) + ms);
const print = (entries, count) => {
  for (const [key, ms] of entries.sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${ms.toFixed(2).padStart(8)} ms  ${key}`);
};
console.log(`${variant}, ${runs} ${visit} visits: self time per script`);
print([...perScript], 20);
console.log('\nfunctions');
print([...selfMs], 25);
