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

/**
 * Work a headless run with fresh contexts never uses: every new window of the full browser
 * preloads the omnibox's two WebUI popups in a renderer of their own, and every new context
 * starts a spare renderer for a later page of that context, which a journey or a test rarely
 * opens. Together about 200 ms and two busy processes beside each page opened.
 */
export const UNUSED_WORK_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

/** Chromium keeps only the last `--disable-features`: this one replaces Playwright's own list, so the audit's pages run with Chromium's defaults otherwise. */
export const BROWSER_ARGS = [
  ...HEADLESS_ARGS,
  '--disable-site-isolation-trials',
  `--disable-features=IsolateOrigins,site-per-process,${UNUSED_WORK_FEATURES.join(',')}`,
];

export async function launchAuditBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), headless: true, args: BROWSER_ARGS });
}
