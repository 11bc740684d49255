/**
 * One Chromium for a whole test run (a vitest global setup of the e2e and server projects): the
 * test files connect to it instead of each launching its own, which saves a launch and a first
 * page's warm-up (about a second each, more under load) per file. Nothing else is shared: every
 * test still opens its own context (its own storage, cookies and cache), and the contexts a file
 * created close when it disconnects. The same flags and a fresh profile as a file's own browser.
 */
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { HEADLESS_ARGS } from '../cli/audit/browser.ts';
import { CHROMIUM } from '../scripts/ensure-chromium.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's endpoint, or null (no Chromium here: files launch their own, or skip). */
    chromiumEndpoint: string | null;
  }
}

/** How the tests' Chromium is started, shared or for one file: the headless flags plus `args`. */
export const launchOptions = (args: readonly string[] = []) => ({ executablePath: CHROMIUM, headless: true, args: [...HEADLESS_ARGS, ...args] });

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    project.provide('chromiumEndpoint', null);
    return async () => {};
  }
  const server = await chromium.launchServer(launchOptions());
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
