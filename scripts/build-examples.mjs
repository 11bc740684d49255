// Bundles the third-party libraries of the example pages into dist/examples, which the
// reference server serves under /examples/ beside the examples folder: Prebid.js 11 with its
// TCF and GPP consent modules for examples/prebid.html (its page has no US privacy string, and
// Prebid's US privacy module turns the API's "none" into an unhandled rejection). Nothing is fetched at run
// time. Prebid.js is a dev dependency: without it the bundle is skipped and the page says so
// (docs/decisions/example-prebid-bundle.md).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

export const EXAMPLES_OUT = 'dist/examples';

const PREBID_ENTRY = `import pbjs from 'prebid.js';
import 'prebid.js/modules/consentManagementTcf';
import 'prebid.js/modules/consentManagementGpp';
pbjs.processQueue();`;

const hasPrebid = () => {
  try {
    createRequire(import.meta.url).resolve('prebid.js');
    return true;
  } catch {
    return false;
  }
};

/** Writes dist/examples/lib/prebid.js; returns the files written. */
export async function buildExampleLibraries() {
  if (!hasPrebid()) {
    console.log('examples: prebid.js is not installed (a dev dependency), examples/prebid.html will say so');
    return [];
  }
  mkdirSync(`${EXAMPLES_OUT}/lib`, { recursive: true });
  await build({
    stdin: { contents: PREBID_ENTRY, resolveDir: process.cwd(), sourcefile: 'prebid-entry.js' },
    bundle: true,
    format: 'iife',
    minify: true,
    legalComments: 'none',
    outfile: `${EXAMPLES_OUT}/lib/prebid.js`,
    logLevel: 'warning',
  });
  return [`${EXAMPLES_OUT}/lib/prebid.js`];
}
