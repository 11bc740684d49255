/**
 * The import rules of docs/import-rules.md, enforced: every relative import (and `import type`,
 * and `export ... from`) of server/, cli/ and src/ is read from the source and checked against
 * the allowed edges below. A wrong direction fails here with the file and the import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/**
 * The layer of a repository path: `wire`; `browser-shared` (code the browser bundles share);
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
  if (source === 'browser-shared') return false;
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

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative module specifiers of `import ... from`, `import(...)`, `export ... from` and side-effect imports. */
function importsOf(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

function edges(): string[] {
  return ['src', 'server', 'cli'].flatMap(sourceFiles).flatMap((file) =>
    importsOf(readFileSync(join(root, file), 'utf8')).map((specifier) => `${file} -> ${relative(root, resolve(root, dirname(file), specifier))}`),
  );
}

describe('import rules (docs/import-rules.md)', () => {
  const all = edges();

  it('reads the imports of every layer', () => {
    for (const layer of ['src/wire/', 'src/browser-shared/', 'src/runtime/', 'src/consent/', 'server/', 'cli/']) expect(all.some((edge) => edge.startsWith(layer))).toBe(true);
  });

  it('has no import against the direction of the layers, beyond the listed exceptions', () => {
    const wrong = all.filter((edge) => {
      const [from, to] = edge.split(' -> ') as [string, string];
      return !isAllowed(from, to) && !KNOWN_EXCEPTIONS.has(edge);
    });
    expect(wrong).toEqual([]);
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
  });
});
