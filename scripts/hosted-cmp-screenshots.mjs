// The screenshots of the hosted prompt in the docs (docs/server.md, "Hosted consent prompt";
// docs/consent.md): both layers in English and German, from the current UI. Starts the real
// server (built tree, a throwaway SQLite file, the GVL fixture), stores an instance with `tcf`
// settings through the admin API, and photographs `/cmp/prompt.html` in Chromium at 390 x 700.
// Run after a build: `node scripts/build.mjs && node scripts/hosted-cmp-screenshots.mjs`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';
import { ensureChromium } from './ensure-chromium.mjs';

const OUT = 'docs/images';
const ADMIN_TOKEN = 'screenshots-admin-token-0123456789';
const VIEWPORT = { width: 390, height: 700 };
const TCF = {
  cmpId: 300,
  cmpVersion: 1,
  vendors: [1, 2, 8, 25, 52],
  purposes: { ads: [1, 2, 3, 4], measurement: [1, 7, 8, 9] },
  specialFeatures: [1],
  publisherCountryCode: 'DE',
};

/** The server's listening URL, read from its first JSON log line that has one. */
function startServer(dir) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
    ADMIN_TOKEN,
    TCF_VENDOR_LIST: 'fixtures/tcf/vendor-list.json',
    // The German file written for the fixture GVL, so the German shots are German throughout.
    TCF_TRANSLATIONS_DIR: process.env.TCF_TRANSLATIONS_DIR ?? 'fixtures/tcf/translations',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start in 20 s')), 20_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      const found = line.startsWith('{') ? JSON.parse(line).url : undefined;
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, url };
}

async function photograph(browser, origin, lang) {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: lang, colorScheme: 'light' });
  const page = await context.newPage();
  await page.goto(`${origin}/cmp/prompt.html?instance=docs&lang=${lang}`);
  await page.waitForFunction(() => performance.getEntriesByName('cmp-details-ready').length > 0);
  await page.screenshot({ path: join(OUT, `hosted-cmp-first-layer-${lang}.png`) });
  await page.click('#customize');
  await page.waitForSelector('#vendor-list li');
  // The layer's first screen, without the focus ring the heading never shows (it has none).
  await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
  await page.screenshot({ path: join(OUT, `hosted-cmp-second-layer-${lang}.png`) });
  await context.close();
}

const dir = mkdtempSync(join(tmpdir(), 'page-screenshots-'));
const server = startServer(dir);
try {
  const origin = await server.url;
  const response = await fetch(`${origin}/admin/api/instances/docs`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tcf: TCF }),
  });
  if (!response.ok) throw new Error(`PUT /admin/api/instances/docs: ${response.status} ${await response.text()}`);
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ['--no-sandbox', '--disable-background-networking'],
  });
  try {
    for (const lang of ['en', 'de']) await photograph(browser, origin, lang);
  } finally {
    await browser.close();
  }
  console.log(`wrote ${OUT}/hosted-cmp-{first,second}-layer-{en,de}.png`);
} finally {
  server.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
