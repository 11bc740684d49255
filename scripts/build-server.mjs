// The reference server as one file, dist/server/main.mjs: `node dist/server/main.mjs` starts in
// about half the time `tsx server/main.ts` takes (no TypeScript loader, one module to read), which
// a restart, a rolling deploy and the tests that start server processes all wait for. Packages
// stay in node_modules. A module that reads a file beside its source (a page template, the
// message catalogues) keeps its own `import.meta.url`, written relative to the bundle, so the
// bundle runs from any checkout with dist/ beside server/ and src/ (docs/server.md, "Deployment").
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const OUTFILE = 'dist/server/main.mjs';

/** Each module's `import.meta.url` as the URL of its own source, from the bundle's. */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const fromBundle = relative(dirname(resolve(OUTFILE)), path)
        .split('\\')
        .join('/');
      return {
        contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

export async function buildServer() {
  await build({
    entryPoints: ['server/main.ts'],
    outfile: OUTFILE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    plugins: [ownUrls],
    logLevel: 'warning',
  });
}
