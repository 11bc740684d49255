/**
 * The audit's browser: the Chromium that `npm test` uses (found, or installed as root, by
 * scripts/ensure-chromium.mjs), headless, through the project's `playwright-core`. Site
 * isolation is off so that one DevTools session sees the requests of every frame, cross-site
 * frames included; each journey gets a fresh context (an empty profile).
 */
import { chromium, type Browser } from 'playwright-core';
import { ensureChromium } from '../../scripts/ensure-chromium.mjs';

/** Headless Chromium on a closed machine, as root: the flags the project's tests launch it with too. */
export const HEADLESS_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-quic',
];

export const BROWSER_ARGS = [
  ...HEADLESS_ARGS,
  '--disable-site-isolation-trials',
  '--disable-features=IsolateOrigins,site-per-process',
];

export async function launchAuditBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), headless: true, args: BROWSER_ARGS });
}
