import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Files run side by side, one per core but at least two: vitest's own default (cores - 1) runs
 * one file at a time on a two-core machine, and every project leaves a core idle part of the time
 * (server files wait on PostgreSQL and loopback sockets; an e2e file on its pages' servers,
 * network and timers). This is safe because no two files share state (docs/architecture.md,
 * "Tests"): every file opens its own servers on port 0, its own PostgreSQL database, its own
 * temporary folders and its own browser contexts.
 */
const WORKERS = Math.max(2, availableParallelism());

/**
 * The e2e files that run longest (a fresh clone's timings, bench/results/test-suite.md). Without
 * vitest's cache of earlier durations (a fresh clone has none) files start largest first, and a
 * small file with many slow tests started last kept one worker busy alone for its whole run
 * (`audit-examples`, 73 s at the end of a 516 s step); these start first, in this order.
 */
const LONG_FILES = [
  'test/e2e/audit/audit-examples.test.ts',
  'test/e2e/examples.test.ts',
  'test/e2e/audit/audit-vendors-prompt.test.ts',
  'test/e2e/acceptance-consent.test.ts',
  'test/e2e/prompt-browser.test.ts',
  'test/e2e/leak-matrix.test.ts',
];

/** Vitest's own order, with LONG_FILES moved to the front. */
class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONG_FILES.indexOf(relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'));
      return index === -1 ? LONG_FILES.length : index;
    };
    return (await super.sort(files))
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  define: { DEV: 'true', RELEASE: '"dev"' },
  test: {
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // A DOM costs about half a second per file: the files that need one say so on their
          // first line (`// @vitest-environment happy-dom`); the rest run in Node.
          environment: 'node',
          // A worker keeps its loaded modules from one file to the next, as in the other two
          // projects (import time 22 -> 12 s): a file still gets its own DOM when it asks for
          // one, and the files pass in any order (checked with `--sequence.shuffle.files`).
          isolate: false,
          // Property runs and the CLI's processes take a few seconds on a busy two-core machine.
          testTimeout: 20_000,
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/server/global-setup.ts'],
          // A worker keeps its loaded modules from one file to the next (Fastify, the IAB
          // libraries, the store drivers); every file builds its own app, store and servers.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/browser-server.ts'],
          // Each worker keeps its loaded modules from one file to the next (playwright-core, the
          // harness): about 0.6 s of imports less per file. No e2e helper keeps state of its own
          // between files, and each file opens its own browser connection, servers and contexts.
          isolate: false,
          // A real browser on a shared two-core machine: polls wait up to 5 s, not vitest's 1 s.
          expect: { poll: { timeout: 5_000, interval: 50 } },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A test that fails is run once more; one that passes only then is still listed by
          // `npm test` as flaky, with its first failure (scripts/test.mjs), to be fixed.
          retry: 1,
          maxWorkers: WORKERS,
          // Tests a file marks concurrent run two at a time.
          maxConcurrency: 2,
        },
      },
    ],
  },
});
