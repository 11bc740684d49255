/**
 * The import rules of docs/import-rules.md, enforced: every relative import (and `import type`,
 * `import()` and `export ... from`) of the TypeScript and JavaScript files of server/, cli/ and
 * src/ is read from the source and checked against the allowed edges below. A wrong direction
 * fails here with the file and the import; so does an `import()` of a computed module (the rules
 * cannot follow it) and a chain of imports from server/ or cli/ to a DOM module of the hosted
 * prompt.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf, computedImportsOf, edgesOf, graphOf, reachableFrom, root, sourceFiles } from './import-graph.ts';

/**
 * The layer of a repository path: `wire`; `browser-shared` (code the browser bundles share);
 * `admin` (the admin dashboard's script, a bundle the server serves);
 * `runtime` (src/runtime and the built-in elements of
 * src/elements, one bundle); a feature (an extension: src/consent with its parts in
 * src/consent-*, src/auto-ads, src/geo); `server` or `cli`.
 */
/** Libraries on top of wire that pages, frames and the server all use (TC strings, message catalogues, the hosted prompt whose page the server fills in). */
const SHARED = new Set(['tcf', 'messages', 'hosted-cmp']);

function layerOf(path: string): string {
  const [top, second = ''] = path.split('/');
  if (top !== 'src') return top!;
  if (second === 'wire') return 'wire';
  if (second === 'browser-shared') return 'browser-shared';
  if (second === 'admin') return 'admin';
  if (SHARED.has(second)) return 'shared';
  if (second === 'runtime' || second === 'elements') return 'runtime';
  return `feature:${second.replace(/^consent-.*/, 'consent')}`;
}

/**
 * Whether `from` may import `to` (repository paths):
 * - src/wire imports only src/wire;
 * - src/browser-shared imports itself and src/wire; only the runtime and the features import it
 *   (the server, the validator and the shared libraries have no DOM to share);
 * - the shared libraries (src/tcf, src/messages) import src/wire and each other, and every layer
 *   but wire may import them;
 * - src/admin (the admin dashboard's script) imports itself and src/wire only, and nothing imports it;
 * - the runtime imports the runtime and src/wire;
 * - a feature imports its own folder, src/wire and the runtime's index only;
 * - server/ and cli/ import their own folder and src/wire only (cli also the Chromium finder
 *   of scripts/).
 */
function isAllowed(from: string, to: string): boolean {
  const [source, target] = [layerOf(from), layerOf(to)];
  if (target === 'wire') return true;
  if (source === target) return true;
  if (target === 'browser-shared') return source === 'runtime' || source.startsWith('feature:');
  if (source === 'browser-shared' || source === 'admin') return false;
  if (target === 'shared') return source !== 'wire';
  if (source.startsWith('feature:')) return to === 'src/runtime/index.ts';
  // The page audit finds or installs Chromium the way `npm test` does.
  return source === 'cli' && to === 'scripts/ensure-chromium.mjs';
}

/**
 * Edges that break the rules today, each with where its code should go. An edge listed here and
 * no longer found fails the test too, so the list only shrinks (it is empty now: keep it so).
 */
const KNOWN_EXCEPTIONS: ReadonlySet<string> = new Set<string>([]);

const LAYERS = ['src', 'server', 'cli'];

/** The edges that break the rules (beyond the listed exceptions). */
function wrongEdges(edges: readonly string[]): string[] {
  return edges.filter((edge) => {
    const [from, to] = edge.split(' -> ') as [string, string];
    return !isAllowed(from, to) && !KNOWN_EXCEPTIONS.has(edge);
  });
}

/** `file: import(...)` for every `import()` of a computed module in the files of `dirs` under `base`. */
function computedImports(dirs: readonly string[], base = root): string[] {
  return dirs
    .flatMap((dir) => sourceFiles(dir, base))
    .flatMap((file) => computedImportsOf(readFileSync(join(base, file), 'utf8')).map((call) => `${file}: ${call}`));
}

/** The modules of src/hosted-cmp that touch the page (name `document` or `window` in their code): the prompt frame's, never the server's. */
function domModules(base = root): Set<string> {
  return new Set(
    sourceFiles('src/hosted-cmp', base).filter((file) =>
      /\b(document|window)\b/.test(codeOf(readFileSync(join(base, file), 'utf8'))),
    ),
  );
}

/** `file -> DOM module` for each DOM module a file of server/ or cli/ reaches through its imports. */
function domReachedFromNode(edges: readonly string[], dom: ReadonlySet<string>): string[] {
  const graph = graphOf(edges);
  const starts = [...graph.keys()].filter((file) => file.startsWith('server/') || file.startsWith('cli/'));
  return starts.flatMap((file) =>
    [...reachableFrom(graph, file)].filter((reached) => dom.has(reached)).map((reached) => `${file} -> ${reached}`),
  );
}

/** A repository of `files` (path -> text) in a temporary folder, for the cases that must fail. */
function withRepository(files: Readonly<Record<string, string>>, check: (base: string) => void) {
  const base = mkdtempSync(join(tmpdir(), 'import-rules-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    check(base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

describe('import rules (docs/import-rules.md)', () => {
  const all = edgesOf(LAYERS);

  it('reads the imports of every layer', () => {
    for (const layer of ['src/wire/', 'src/browser-shared/', 'src/runtime/', 'src/consent/', 'server/', 'cli/'])
      expect(all.some((edge) => edge.startsWith(layer))).toBe(true);
  });

  it('has no import against the direction of the layers, beyond the listed exceptions', () => {
    expect(wrongEdges(all)).toEqual([]);
  });

  it('lists only exceptions that still exist', () => {
    expect([...KNOWN_EXCEPTIONS].filter((edge) => !all.includes(edge))).toEqual([]);
  });

  it('refuses the directions it is meant to refuse', () => {
    expect(isAllowed('src/wire/consent.ts', 'src/runtime/index.ts')).toBe(false);
    expect(isAllowed('server/app.ts', 'src/runtime/diagnostics.ts')).toBe(false);
    expect(isAllowed('cli/page.ts', 'src/geo/element.ts')).toBe(false);
    expect(isAllowed('src/consent/element.ts', 'src/runtime/consent-gate.ts')).toBe(false);
    expect(isAllowed('src/consent/element.ts', 'src/auto-ads/element.ts')).toBe(false);
    expect(isAllowed('src/runtime/gate.ts', 'src/consent/element.ts')).toBe(false);
    expect(isAllowed('src/consent/element.ts', 'src/runtime/index.ts')).toBe(true);
    expect(isAllowed('server/app.ts', 'src/wire/values.ts')).toBe(true);
    expect(isAllowed('src/browser-shared/parts.ts', 'src/wire/diagnostic.ts')).toBe(true);
    expect(isAllowed('src/consent/fast-path.ts', 'src/browser-shared/site-store.ts')).toBe(true);
    expect(isAllowed('src/runtime/storage.ts', 'src/browser-shared/site-store.ts')).toBe(true);
    expect(isAllowed('src/browser-shared/parts.ts', 'src/runtime/index.ts')).toBe(false);
    expect(isAllowed('src/wire/consent.ts', 'src/browser-shared/site-store.ts')).toBe(false);
    expect(isAllowed('server/app.ts', 'src/browser-shared/site-store.ts')).toBe(false);
    expect(isAllowed('cli/page.ts', 'src/browser-shared/blocked-scripts.ts')).toBe(false);
    expect(isAllowed('src/hosted-cmp/page-config.ts', 'src/browser-shared/parts.ts')).toBe(false);
    expect(isAllowed('src/admin/admin-page.ts', 'src/wire/gvl.ts')).toBe(true);
    expect(isAllowed('src/admin/admin-page.ts', 'src/admin/dom.ts')).toBe(true);
    expect(isAllowed('src/admin/dom.ts', 'src/hosted-cmp/layer-items.ts')).toBe(false);
    expect(isAllowed('src/admin/dom.ts', 'src/runtime/index.ts')).toBe(false);
    expect(isAllowed('server/routes/admin-page.ts', 'src/admin/admin-page.ts')).toBe(false);
    expect(isAllowed('src/consent/element.ts', 'src/admin/dom.ts')).toBe(false);
  });

  it('reads the JavaScript files too', () => {
    expect(sourceFiles('cli')).toContain('cli/audit/page-recorder.js');
    withRepository({ 'cli/recorder.js': "import '../src/geo/element.ts';\n", 'src/geo/element.ts': '' }, (base) => {
      expect(wrongEdges(edgesOf(['cli'], base))).toEqual(['cli/recorder.js -> src/geo/element.ts']);
    });
  });

  it('has no import() of a computed module', () => {
    expect(computedImports(LAYERS)).toEqual([]);
  });

  it('refuses an import() of a computed module', () => {
    const source =
      "const name = './a.ts';\nawait import(name);\nawait import('./parts/' + name);\nawait import('./b.ts');\n/* import(name) */\n";
    withRepository({ 'server/load.mjs': source }, (base) => {
      expect(computedImports(['server'], base)).toEqual([
        'server/load.mjs: import(name)',
        "server/load.mjs: import('./parts/' + name)",
      ]);
    });
  });

  it('finds the DOM modules of the hosted prompt by their code', () => {
    const dom = domModules();
    expect(dom).toContain('src/hosted-cmp/prompt-entry.ts');
    expect(dom).toContain('src/hosted-cmp/switches.ts');
    expect(dom).not.toContain('src/hosted-cmp/page-config.ts');
    // It names `window` in its comments only.
    expect(dom).not.toContain('src/hosted-cmp/gpp-entry.ts');
  });

  it('keeps the DOM modules of the hosted prompt out of reach of the server and the CLI', () => {
    expect(domReachedFromNode(all, domModules())).toEqual([]);
  });

  it('refuses a chain of imports from the server to a DOM module of the hosted prompt', () => {
    const repository = {
      'server/page.ts': "import { summarize } from '../src/hosted-cmp/summary.ts';\n",
      'src/hosted-cmp/summary.ts': "import type { View } from './view.ts';\n// document.title is the frame's\n",
      'src/hosted-cmp/view.ts': 'export const title = () => document.title;\n',
    };
    withRepository(repository, (base) => {
      const edges = edgesOf(['server', 'src'], base);
      expect(wrongEdges(edges)).toEqual([]);
      expect([...domModules(base)]).toEqual(['src/hosted-cmp/view.ts']);
      expect(domReachedFromNode(edges, domModules(base))).toEqual(['server/page.ts -> src/hosted-cmp/view.ts']);
    });
  });
});
