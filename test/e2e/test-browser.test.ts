/**
 * The tests' own browser (test/browser-server.ts): a test page opens without the full browser's
 * omnibox popups, and the one `--disable-features` that turns them off (and the spare renderer,
 * which is no target and not counted here) keeps Playwright's own list too (Chromium keeps only
 * the last such flag it is given).
 */
import { expect, test } from 'vitest';
import { launchBrowser } from '../browser.ts';
import { UNUSED_WORK_FEATURES } from '../../cli/audit/browser.ts';

const disabledFeatures = (commandLine: string) =>
  commandLine.split(/\s+/).filter((arg) => arg.startsWith('--disable-features='));

test.each([
  ['the shared browser', []],
  ['a browser of its own', ['--host-resolver-rules=MAP own.example 127.0.0.1']],
])('%s opens a page alone in its window, with one --disable-features holding both lists', async (_name, args) => {
  const browser = await launchBrowser(args);
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.filter((target) => target.type === 'browser_ui').map((target) => target.url)).toEqual([]);
    await page.goto('chrome://version');
    const flags = disabledFeatures((await page.locator('#command_line').textContent()) ?? '');
    expect(flags).toHaveLength(1);
    const features = (flags[0] ?? '').slice('--disable-features='.length).split(',');
    expect(features).toEqual(expect.arrayContaining(UNUSED_WORK_FEATURES));
    expect(features.length).toBeGreaterThan(UNUSED_WORK_FEATURES.length);
    await context.close();
  } finally {
    await browser.close();
  }
});
