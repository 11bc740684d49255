/**
 * The AdSense and Google Publisher Tag examples (/examples/adsense-auto-ads.html,
 * /examples/gpt-auto-ads.html), served by the real server in real Chromium: auto ads place
 * slots of the network, the local fake script renders every one (loaded once), the page says it
 * uses fakes, and no request leaves this server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { launchBrowser, newPage } from './harness.ts';

/** The server process's start, with room for a machine busy with other Chromium tests (the hook allows 60 s). */
const SERVER_START_MS = 50_000;

let browser: Browser;
let server: ServerProcess;
let dir = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-ad-examples-'));
  server = await startServer(
    { DATABASE_URL: `sqlite:${join(dir, 'page.db')}`, ADMIN_TOKEN: 'examples-admin-token' },
    SERVER_START_MS,
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  {
    page: 'adsense-auto-ads.html',
    type: 'adsense',
    script: '/examples/assets/fake-adsbygoogle.js',
    filled: 'ins.adsbygoogle[data-adsbygoogle-status="done"]',
    label: 'Fake AdSense ad',
  },
  {
    page: 'gpt-auto-ads.html',
    type: 'doubleclick',
    script: '/examples/assets/fake-gpt.js',
    filled: 'div[id^="page-ad-gpt-"]',
    label: 'Fake Google Publisher Tag ad',
  },
])('the $type example', ({ page: name, type, script, filled, label }) => {
  it('renders every placed slot with the local fake script, loaded once, and requests nothing elsewhere', async () => {
    const { page, context, messages, errors } = await newPage(browser, { viewport: { width: 1000, height: 700 } });
    const origins = new Set<string>();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith('http')) origins.add(new URL(request.url()).origin);
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    try {
      await page.goto(`${server.url}/examples/${name}`);
      await expect.poll(() => page.textContent('#ads-placed'), { timeout: 20_000 }).toMatch(/^[1-9]\d* placed/);
      expect(await page.getByRole('note').textContent()).toContain('Fake ad script');
      const slots = await page.locator(`page-ad[type="${type}"]`).count();
      // Slots render when near the viewport: scroll through the article.
      await page.evaluate(async () => {
        for (let y = 0; y < document.documentElement.scrollHeight; y += 500) {
          scrollTo(0, y);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      await expect.poll(() => page.locator(filled).count(), { timeout: 10_000 }).toBe(slots);
      expect(slots).toBeGreaterThan(1);
      const text = await page.locator(filled).first().textContent();
      expect(text).toContain(label);
      expect(text).toContain('non-personalised');
      expect(scripts.filter((path) => path === script)).toHaveLength(1);
      expect([...origins]).toEqual([server.url]);
      expect([
        ...messages.filter((m) => m.type === 'error' || m.text.startsWith('[page-')).map((m) => m.text),
        ...errors,
      ]).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
