/**
 * The relative imports of the repository's code, read from the source: every `import`,
 * `import type`, `import()` and `export ... from` of the TypeScript and JavaScript files of a
 * folder, as edges between repository paths. Shared by the import-rules and import-circles tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

/** Every source file of `dir` (a path under `base`, the repository by default), declaration files aside. */
export function sourceFiles(dir: string, base = root): string[] {
  return readdirSync(join(base, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path, base);
    return /\.(ts|mts|cts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Relative module specifiers of `import ... from`, `import(...)`, `export ... from` and side-effect imports. */
export function importsOf(text: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** The `import(...)` calls whose module is not a string literal (the rules cannot follow them). */
export function computedImportsOf(text: string): string[] {
  const calls = [...codeOf(text).matchAll(/\bimport\s*\(([^)]*)\)/g)];
  return calls
    .filter(([, argument]) => argument!.trim() && !/^\s*(['"])[^'"]*\1\s*$/.test(argument!))
    .map(([call]) => call);
}

/** The text of a module without its comments (a `//` inside a string cuts the rest of its line). */
export const codeOf = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** `file -> target` for every relative import of the files of `dirs` (paths under `base`). */
export function edgesOf(dirs: readonly string[], base = root): string[] {
  return dirs
    .flatMap((dir) => sourceFiles(dir, base))
    .flatMap((file) =>
      importsOf(readFileSync(join(base, file), 'utf8')).map(
        (specifier) => `${file} -> ${relative(base, resolve(base, dirname(file), specifier))}`,
      ),
    );
}

/** The edges as a map from each file to the files it imports. */
export function graphOf(edges: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    graph.set(from, [...(graph.get(from) ?? []), to]);
  }
  return graph;
}

/** One circle through each group of files that import each other (`a -> b -> a`), or none. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const circles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return circles;
}

/** Every file `start` reaches through its imports, `start` included. */
export function reachableFrom(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set<string>([start]);
  for (const file of seen) for (const next of graph.get(file) ?? []) seen.add(next);
  return seen;
}
