import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { DEV: 'true' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'happy-dom',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // A real browser on a shared two-core machine: polls wait up to 5 s, not vitest's 1 s.
          expect: { poll: { timeout: 5_000, interval: 50 } },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
