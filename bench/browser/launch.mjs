// Chromium for the benchmarks: headless, no background traffic, one browser per part and a
// fresh context (empty storage, cookies and cache) per run. Like the tests' browser, it turns off
// the work a new window and a new context start that no measured page uses (the omnibox popups,
// the spare renderer: test/browser-server.ts), which would otherwise compete with the page
// being measured.
import { chromium } from 'playwright-core';
import { featureFlags, withFeatureFlags } from '../../test/browser-server.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export async function launchBrowser() {
  const options = {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  };
  return chromium.launch(withFeatureFlags(options, await featureFlags(options)));
}
