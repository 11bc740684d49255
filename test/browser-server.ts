/**
 * One Chromium for a whole test run (a vitest global setup of the e2e project): the
 * test files connect to it instead of each launching its own, which saves a launch and a first
 * page's warm-up (about a second each, more under load) per file. Nothing else is shared: every
 * test still opens its own context (its own storage, cookies and cache), and the contexts a file
 * created close when it disconnects. The same flags and a fresh profile as a file's own browser.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { HEADLESS_ARGS, UNUSED_WORK_FEATURES } from '../cli/audit/browser.ts';
import { CHROMIUM } from '../scripts/ensure-chromium.mjs';

/** How a launch turns features off: Playwright's own `--disable-features` left out, one merged flag added. */
export type FeatureFlags = { readonly ignore: readonly string[]; readonly flag: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint, or null (no Chromium here: files launch their own, or skip). */
    chromiumEndpoint: string | null;
    /** The feature flags of the shared Chromium, for a file that launches its own. */
    chromiumFeatures: FeatureFlags | null;
  }
}

/** What `chromium.launch` and `chromium.launchServer` take here. */
export type ChromiumOptions = {
  readonly executablePath: string;
  readonly headless: boolean;
  readonly args: readonly string[];
};

/** `options` with the feature flags: Playwright's own `--disable-features` left out, the merged one added. */
export const withFeatureFlags = (options: ChromiumOptions, features: FeatureFlags | null) => ({
  ...options,
  ignoreDefaultArgs: [...(features?.ignore ?? [])],
  args: [...options.args, ...(features ? [features.flag] : [])],
});

/** How the tests' Chromium is started, shared or for one file: the headless flags plus `args`. */
export const launchOptions = (args: readonly string[] = [], features: FeatureFlags | null = null) =>
  withFeatureFlags({ executablePath: CHROMIUM, headless: true, args: [...HEADLESS_ARGS, ...args] }, features);

/** Playwright's own `--disable-features` (or undefined), read once per process: it does not depend on our flags. */
let playwrightFlag: Promise<string | undefined> | undefined;

/**
 * The tests turn off `UNUSED_WORK_FEATURES` on top of Playwright's own list: the omnibox popups
 * of every new window and the spare renderer of every new context (a test page took about 450 ms
 * to open instead of 250, with those renderers busy beside it; bench/results/test-suite.md).
 * Chromium keeps only the last `--disable-features` it is given, so one added after
 * Playwright's would switch Playwright's list back on. Its list is read from a first launch's
 * command line instead (Playwright does not export it), once per process, and the browser
 * launched with `options` then gets one flag holding both. The benchmarks' browser is made the
 * same way.
 */
export async function featureFlags(options: ChromiumOptions): Promise<FeatureFlags> {
  playwrightFlag ??= chromium.launchServer({ ...options, args: [...options.args] }).then(async (probe) => {
    const own = probe.process().spawnargs.find((arg) => arg.startsWith('--disable-features='));
    await probe.close();
    return own;
  });
  const own = await playwrightFlag;
  const off = UNUSED_WORK_FEATURES.join(',');
  return own ? { ignore: [own], flag: `${own},${off}` } : { ignore: [], flag: `--disable-features=${off}` };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    project.provide('chromiumEndpoint', null);
    project.provide('chromiumFeatures', null);
    return async () => {};
  }
  const features = await featureFlags(launchOptions());
  const server = await chromium.launchServer(launchOptions([], features));
  project.provide('chromiumEndpoint', server.wsEndpoint());
  project.provide('chromiumFeatures', features);
  return () => server.close();
}
