/**
 * The consent bench's page probe (bench/consent/page-probe.mjs) in Chromium: it must see a prompt
 * in a frame soon after it becomes visible (never before), however it comes (markup that loses `hidden`, a node a script
 * adds, an opacity fade), and never a prompt that stays hidden, or a return visit's "prompt on
 * return" check and the first visit's "prompt visible" time would be wrong.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageProbeSource } from '../../bench/consent/page-probe.mjs';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

const PAGES: Record<string, string> = {
  hidden: '<div id="prompt" hidden>Prompt</div><script>setTimeout(() => (window.done = true), 300);</script>',
  shown:
    '<div id="prompt" hidden>Prompt</div><script>setTimeout(() => { window.shownAt = performance.now(); document.getElementById("prompt").hidden = false; }, 200);</script>',
  added:
    '<script>setTimeout(() => { const p = document.createElement("div"); p.id = "prompt"; p.textContent = "Prompt"; document.body.append(p); window.shownAt = performance.now(); }, 200);</script>',
  faded:
    '<div id="prompt" style="opacity:0;transition:opacity 0s 300ms">Prompt</div><script>requestAnimationFrame(() => requestAnimationFrame((frame) => { document.getElementById("prompt").style.opacity = "1"; window.shownAt = frame + 300; }));</script>',
};

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer(
    Object.fromEntries(
      Object.entries(PAGES).map(([name, body]) => [
        `/${name}.html`,
        { body: `<!doctype html><title>${name}</title><body>${body}</body>`, headers: { 'content-type': 'text/html' } },
      ]),
    ),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Probe = { promptVisibleAt: number | null; promptFrames: number };

async function probe(name: string): Promise<{ probe: Probe; shownAt: number | null }> {
  const { page, context } = await newPage(browser);
  await page.addInitScript({ content: pageProbeSource({ promptSelector: '#prompt', visit: 'return' }) });
  await page.goto(`${server.origin}/${name}.html`);
  await page.waitForTimeout(700);
  const result = await page.evaluate(() => ({
    probe: (window as unknown as { __bench: Probe }).__bench,
    shownAt: (window as unknown as { shownAt?: number }).shownAt ?? null,
  }));
  await context.close();
  return result;
}

describe('the consent bench page probe', () => {
  it('never sees a prompt that stays hidden', async () => {
    expect((await probe('hidden')).probe).toMatchObject({ promptVisibleAt: null, promptFrames: 0 });
  });

  it.for(['shown', 'added', 'faded'])(
    'sees a prompt that becomes visible (%s), not before it is and soon after',
    async (name) => {
      const { probe: seen, shownAt } = await probe(name);
      expect(seen.promptFrames).toBe(1);
      expect(shownAt).not.toBeNull();
      // A frame's time is when it began, a little before the script that ran in it: one frame of slack.
      // A probe that took the faded prompt for visible would see it 300 ms early.
      expect(seen.promptVisibleAt).toBeGreaterThanOrEqual((shownAt ?? Number.NaN) - 20);
      expect(seen.promptVisibleAt).toBeLessThan((shownAt ?? 0) + 300);
    },
  );
});
