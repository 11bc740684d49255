/**
 * `--pages N`: after the first page, the journey follows up to N links of that page to the same
 * site (http(s), another path or query than the pages already seen), in document order, each
 * opened and looked around like the first page. A link that cannot be opened is skipped.
 */
import type { Page } from 'playwright-core';
import type { NavigationGuard } from './navigation-guard.ts';
import type { NetworkLog } from './network-log.ts';
import { siteOf } from './sites.ts';
import { lookAround, open } from './visit.ts';

const withoutHash = (url: string) => url.split('#')[0] ?? url;

export async function pickLinks(page: Page, count: number, target: URL): Promise<string[]> {
  if (count <= 0) return [];
  const hrefs = await page
    .$$eval('a[href]', (anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))
    .catch(() => [] as string[]);
  const site = siteOf(target.href);
  const seen = new Set([withoutHash(target.href), withoutHash(page.url())]);
  const picked: string[] = [];
  for (const href of hrefs) {
    const url = withoutHash(href);
    if (picked.length >= count || seen.has(url) || !/^https?:/.test(url) || siteOf(url) !== site) continue;
    seen.add(url);
    picked.push(url);
  }
  return picked;
}

export async function followLinks(
  page: Page,
  count: number,
  target: URL,
  guard: NavigationGuard,
  log: NetworkLog,
  visits: { url: string; time: number }[],
): Promise<void> {
  for (const url of await pickLinks(page, count, target)) {
    visits.push({ url, time: Date.now() });
    const visit = await open(page, url, guard);
    if (!('failure' in visit)) await lookAround(page, log);
  }
}
