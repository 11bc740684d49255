/**
 * The tests' Chromium, for the e2e and the server projects alike: the full browser
 * (`/usr/bin/chromium`) in its headless mode, the one readers' pages run in, never the separate
 * headless shell, with a fresh profile per launch. The run's shared browser
 * (test/browser-server.ts) serves every file that needs no flags of its own.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from '../scripts/ensure-chromium.mjs';
import { launchOptions } from './browser-server.ts';

export { CHROMIUM };

/** Whether this machine has it (the server project's browser tests are skipped without it). */
export const hasChromium = existsSync(CHROMIUM);

/** `args` adds flags (a host resolver rule, say) to the headless ones: such a browser is launched for the caller alone. */
export async function launchBrowser(args: readonly string[] = []): Promise<Browser> {
  const shared = args.length ? null : inject('chromiumEndpoint');
  if (shared) return chromium.connect(shared);
  return chromium.launch(launchOptions(args, inject('chromiumFeatures')));
}
