// `npx tsx bench/consent/return-timeline.mjs [runs] [warm|cold] [variant,...]`: when each step of a
// return visit happens on the fast profile, medians over interleaved runs, for the variants of
// `npm run bench -- consent` that start the blocked script: when `v0.js` and the consent file
// (ours or the floor's) have arrived, `DOMContentLoaded`, when `v0.js` has run (its extension
// queue `self.PAGE` answers), when `<page-consent>` is defined (the core has run and the runtime
// has taken it), when the blocked script is inserted, and when it has run. An init script
// notes each time in the page, so unlike `return-ab.mjs` these times include that script's own
// small cost; they order the steps, they are not the bench's figures. `cold` clears the HTTP
// cache and has every file served `no-store`, as the bench's cold return visit does.
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../../scripts/ensure-chromium.mjs';
import { startReferenceCdn } from '../browser/reference-cdn.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { median } from '../lib/stats.mjs';
import { serveConsentPages, VARIANTS } from './consent-pages.mjs';

const runs = Number(process.argv[2] ?? 16);
const isCold = process.argv[3] === 'cold';
const names = (process.argv[4] ?? 'floor-two,floor-runtime,ours').split(',');
const STEPS = ['v0 arrived', 'file arrived', 'DOMContentLoaded', 'v0 ran', 'core ran', 'script inserted', 'script ran'];

/** Runs in the page before its own scripts: notes the first time of each step. */
function noteSteps() {
  // Where the third-party script records its runs (bench/browser/static-server.mjs).
  Reflect.set(window, '__bench', { runs: 0, runTimes: [], earlyRuns: 0, visit: 'return', clickAt: 0 });
  const times = {};
  const note = (name) => {
    times[name] ??= performance.now();
  };
  Reflect.set(window, '__timeline', times);
  document.addEventListener('DOMContentLoaded', () => note('DOMContentLoaded'));
  self.PAGE = self.PAGE || [];
  self.PAGE.push(() => note('v0 ran'));
  customElements.whenDefined('page-consent').then(() => note('core ran'));
  for (const method of ['append', 'replaceWith']) {
    const original = Element.prototype[method];
    Element.prototype[method] = function (...nodes) {
      if (nodes.some((node) => node instanceof HTMLScriptElement && node.src.includes('third-party')))
        note('script inserted');
      return original.apply(this, nodes);
    };
  }
}

const reference = await startReferenceCdn({});
const server = await startStaticServer({ reference });
const urls = serveConsentPages(server, { isHidden: true });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-background-networking'],
});
const rows = Object.fromEntries(names.map((name) => [name, []]));
try {
  for (let run = 0; run < runs; run++)
    for (const name of run % 2 ? [...names].reverse() : names) {
      const context = await browser.newContext();
      await context.addInitScript(noteSteps);
      server.setCacheState('warm');
      const first = await context.newPage();
      await first.goto(urls[name]);
      await first.click(VARIANTS[name].accept);
      await first.waitForFunction(() => (window.__bench?.runTimes?.length ?? 0) > 0);
      await first.close();
      const page = await context.newPage();
      if (isCold) {
        server.setCacheState('cold');
        await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
      }
      await page.goto(urls[name], { waitUntil: 'load' });
      await page.waitForFunction(() => (window.__bench?.runTimes?.length ?? 0) > 0);
      rows[name].push(
        await page.evaluate(() => {
          const arrived = (pattern) =>
            performance.getEntriesByType('resource').find((entry) => pattern.test(entry.name))?.responseEnd;
          return {
            ...window.__timeline,
            'v0 arrived': arrived(/\/v0\.js$/),
            'file arrived': arrived(/\/(v0\/page-consent-0\.1|floor)\.js$/),
            'script ran': window.__bench.runTimes[0],
          };
        }),
      );
      await context.close();
    }
} finally {
  await browser.close();
  await server.close();
  await reference.close();
}
const cell = (values) => (values.length ? median(values).toFixed(1) : '-');
console.log(`${runs} runs, fast profile, ${isCold ? 'cold' : 'warm'} return visit: median ms from navigation\n`);
console.log(`| variant | ${STEPS.join(' | ')} | inserted after its last prerequisite |`);
console.log(`| --- |${STEPS.map(() => ' ---: |').join('')} ---: |`);
for (const name of names) {
  const of = (step) => rows[name].map((row) => row[step]).filter((value) => value !== undefined);
  // What the variant waits for before it inserts the script: the parse, and the files it needs run.
  const waits = name === 'ours' ? ['DOMContentLoaded', 'v0 ran', 'core ran'] : ['DOMContentLoaded'];
  const after = rows[name].map((row) => row['script inserted'] - Math.max(...waits.map((step) => row[step] ?? 0)));
  console.log(`| ${name} | ${STEPS.map((step) => cell(of(step))).join(' | ')} | ${cell(after)} |`);
}
