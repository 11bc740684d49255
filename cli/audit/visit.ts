/**
 * Opening one page of a journey in the top frame, within the validator's URL limits (10 s for
 * the document, see navigation-guard.ts for the rest), and reading its markup as it was sent.
 * Then the reader's first look: the page loads, is scrolled through to its end and back (one
 * animation frame per screen, so what loads near the viewport loads), and the network settles.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { FETCH_TIMEOUT_MS } from '../fetch-page.ts';
import type { NavigationGuard } from './navigation-guard.ts';
import type { NetworkLog } from './network-log.ts';
import { SETTLE, settle } from './settle.ts';

const MAX_SCREENS = 30;

export type Visit = { readonly html: string } | { readonly failure: string };

/**
 * The visit ends as soon as the guard refuses the document: a navigation stopped after its
 * document committed may never reach `domcontentloaded`, and would only end with the time-out.
 */
export async function open(page: Page, url: string, guard: NavigationGuard): Promise<Visit> {
  guard.reset();
  const refused = guard.refused().then((refusal): Visit => ({ failure: `refused: ${refusal}` }));
  return Promise.race([load(page, url, guard), refused]);
}

async function load(page: Page, url: string, guard: NavigationGuard): Promise<Visit> {
  try {
    const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: FETCH_TIMEOUT_MS });
    const refusal = guard.refusal();
    if (refusal) return { failure: `refused: ${refusal}` };
    if (response && !response.ok()) return { failure: `HTTP ${response.status()}` };
    const html = response ? await response.text() : await readFile(fileURLToPath(page.url()), 'utf8');
    await page.waitForLoadState('load', { timeout: SETTLE.maxMs }).catch(() => undefined);
    return { html };
  } catch (error) {
    const refusal = guard.refusal();
    if (refusal) return { failure: `refused: ${refusal}` };
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      failure:
        error instanceof Error && error.name === 'TimeoutError'
          ? `no document within ${FETCH_TIMEOUT_MS / 1000} s`
          : (message ?? 'unknown'),
    };
  }
}

/** Scrolls screen by screen to the end of the page and back to the top, then lets the network settle. */
export async function lookAround(page: Page, log: NetworkLog): Promise<void> {
  for (let screen = 0; screen < MAX_SCREENS; screen += 1) {
    const isAtEnd = await page
      .evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const before = scrollY;
            scrollBy(0, innerHeight * 0.9);
            requestAnimationFrame(() => resolve(scrollY === before));
          }),
      )
      .catch(() => true);
    if (isAtEnd) break;
  }
  await page.evaluate(() => scrollTo(0, 0)).catch(() => undefined);
  await settle(log);
}
