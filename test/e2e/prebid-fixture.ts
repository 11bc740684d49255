/**
 * Prebid.js 11 for the ad-tech e2e tests: the library with its TCF, GPP and US privacy consent
 * modules, bundled by esbuild once per test file (loopback only, nothing downloaded), and the
 * page script that registers a recording bidder: every auction it takes part in leaves the
 * `gdprConsent`, `gppConsent` and `uspConsent` Prebid handed it in `window.bidderSaw`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/** The bundled Prebid.js (an IIFE defining `window.pbjs`), with `modules` of `prebid.js/modules/` besides the consent ones. */
export async function bundlePrebid(modules: readonly string[] = []): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'prebid-'));
  const entry = join(dir, 'entry.js');
  writeFileSync(
    entry,
    `import pbjs from 'prebid.js';
     import 'prebid.js/modules/consentManagementTcf';
     import 'prebid.js/modules/consentManagementGpp';
     import 'prebid.js/modules/consentManagementUsp';
     ${modules.map((name) => `import 'prebid.js/modules/${name}';`).join('\n')}
     pbjs.processQueue();`,
  );
  try {
    await build({
      entryPoints: [entry],
      bundle: true,
      format: 'iife',
      outfile: join(dir, 'out.js'),
      nodePaths: [resolve('node_modules')],
      logLevel: 'error',
    });
    return readFileSync(join(dir, 'out.js'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The page's Prebid set-up: the recording bidder, the consent modules on the IAB APIs and one
 * ad unit; `runAuction()` resolves when the bids are back (or with `cancelled` after 15 s).
 */
export const prebidSetup = (modules: readonly ('gdpr' | 'gpp' | 'usp')[] = ['gdpr'], timeout = 10000) => `<script>
  window.pbjs = window.pbjs || { que: [] };
  window.bidderSaw = [];
  window.auctionEnds = 0;
  pbjs.que.push(() => {
    pbjs.registerBidAdapter(undefined, 'recorder', {
      code: 'recorder',
      supportedMediaTypes: ['banner'],
      isBidRequestValid: () => true,
      buildRequests(bids, bidderRequest) {
        const { gdprConsent, gppConsent, uspConsent } = bidderRequest;
        window.bidderSaw.push(JSON.parse(JSON.stringify({ gdprConsent, gppConsent, uspConsent })));
        return [];
      },
      interpretResponse: () => [],
    });
    pbjs.setConfig({
      debug: true,
      consentManagement: Object.fromEntries(${JSON.stringify(modules)}.map((name) => [name, { cmpApi: 'iab', timeout: ${timeout} }])),
    });
    pbjs.addAdUnits([{ code: 'slot', mediaTypes: { banner: { sizes: [[300, 250]] } }, bids: [{ bidder: 'recorder', params: {} }] }]);
    pbjs.onEvent('auctionEnd', () => window.auctionEnds++);
  });
  window.runAuction = () =>
    new Promise((resolve) => {
      const before = window.bidderSaw.length;
      const timer = setTimeout(() => resolve('cancelled'), ${timeout} + 5000);
      pbjs.que.push(() =>
        pbjs.requestBids({
          timeout: 2000,
          bidsBackHandler: () => {
            clearTimeout(timer);
            resolve(window.bidderSaw.length > before ? window.bidderSaw.at(-1) : 'no bid request');
          },
        }),
      );
    });
</script>
<script async src="/prebid.js"></script>`;
