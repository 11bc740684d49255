// @vitest-environment node
/**
 * The repository explains itself: no tracked file may cite a document that a clone does not
 * contain. Code, tests and docs cite the docs' own sections (`docs/consent.md, "Remote check"`),
 * never the product contract by section number, the original specification, a tracker issue
 * number or a folder outside the repository. "seed" stays allowed where it means the seed of a
 * random generator (fast-check, the fuzz harness), which the window around each use shows.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = `${execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim()}/`;
const SELF = 'test/unit/repository/self-contained.test.ts';
const SKIPPED = new Set(['package-lock.json', SELF]);

/** References to something outside the clone, each with what it stands for. */
const OUTSIDE = [
  { name: 'the product contract file', pattern: /PRODUCT\.md/g },
  { name: 'a product contract section', pattern: /PRODUCT\s+\d/g },
  { name: 'a tracker issue', pattern: /\bissues?\s+#?\d+/gi },
  { name: 'a folder beside the repository', pattern: /\.\.\/shared\b|\/work\/shared\b/g },
];
const SEED = /\bseed\b/gi;
/** Around a random-generator seed: its value, its name in code, or the fuzz tools (and two plain words). */
const RANDOM_SEED =
  /SEED\b|\.seed\b|\bseed\??\s*[:=]|\bseed,?\s*\}|\bseed,\s*[A-Za-z]+[,:]|seed\s+(?:\d|<|\$\{)|fixed[- ]seed|random seed|replayable seed|new seed|which seed|fast-check|numRuns|FUZZ_|harness\.ts|seed library|swap seed|Seed purposes/;

function trackedTextFiles(): { file: string; text: string }[] {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0');
  return files
    .filter((file) => file && !SKIPPED.has(file))
    .flatMap((file) => {
      let buffer: Buffer;
      try {
        buffer = readFileSync(ROOT + file);
      } catch {
        return []; // deleted in the working tree, not yet committed
      }
      return buffer.includes(0) ? [] : [{ file, text: buffer.toString('utf8') }];
    });
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

function outsideReferences(file: string, text: string): string[] {
  const found = OUTSIDE.flatMap(({ name, pattern }) =>
    [...text.matchAll(pattern)].map((match) => `${file}:${lineOf(text, match.index)}: ${name} ("${match[0]}")`),
  );
  for (const match of text.matchAll(SEED)) {
    const window = text.slice(Math.max(0, match.index - 40), match.index + match[0].length + 40);
    if (!RANDOM_SEED.test(window))
      found.push(
        `${file}:${lineOf(text, match.index)}: the original specification ("${window.replace(/\s+/g, ' ').trim()}")`,
      );
  }
  return found;
}

describe('a self-contained repository', () => {
  it('cites no document outside the repository', () => {
    const files = trackedTextFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(({ file, text }) => outsideReferences(file, text))).toEqual([]);
  });

  it('catches each kind of outside reference', () => {
    expect(outsideReferences('a.ts', '// per PRODUCT 3.9')).toHaveLength(1);
    expect(outsideReferences('a.ts', '// see PRODUCT.md')).toHaveLength(1);
    expect(outsideReferences('a.ts', '// (issue 16, part 2)')).toHaveLength(1);
    expect(outsideReferences('a.ts', '// with ../shared beside it')).toHaveLength(1);
    expect(outsideReferences('a.md', 'Blocking policies (seed "Blocking behaviours")')).toHaveLength(1);
    expect(outsideReferences('a.ts', 'fc.assert(property, { numRuns: 100, seed: SEED })')).toEqual([]);
    expect(outsideReferences('a.md', 'with the fixed seed 1611202611')).toEqual([]);
    expect(outsideReferences('a.md', 'See docs/consent.md, "Signals for ad tech".')).toEqual([]);
    expect(outsideReferences('a.md', 'the position of the anchor (seed rule 1)')).toHaveLength(1);
    expect(outsideReferences('a.ts', 'const seed = encodeStore(values); await load(setup.seed);')).toEqual([]);
  });
});
