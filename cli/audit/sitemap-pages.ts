/**
 * `--sitemap <url>`: the pages a site audit opens (docs/validator.md, "A site"). The sitemap is
 * fetched with the validator's URL limits (fetch-page.ts: http(s), 10 s, 5 MB after
 * decompression, no redirect to a loopback or private address unless the sitemap's own address
 * is one or `--allow-private` names the host), read with the bounded reader (sitemap.ts), and a
 * sitemap index is followed one level deep: its sitemaps on the same origin, in order, at most
 * `MAX_CHILD_SITEMAPS`, until there are enough pages. Only pages on the sitemap's origin are
 * kept (the protocol's rule; it also keeps a public sitemap from sending the audit to a private
 * address), each once, up to `maxPages`.
 */
import { type FetchOptions, fetchPage } from '../fetch-page.ts';
import { isPrivateHost } from './address.ts';
import { isSitemapRefusal, parseSitemap, type SitemapRefusal } from './sitemap.ts';

export const MAX_CHILD_SITEMAPS = 10;

export type SitemapPages = {
  /** The sitemap, and the sitemaps of an index that were read. */
  readonly sitemaps: readonly string[];
  /** How many http(s) pages the sitemaps listed on their origin, and elsewhere (left out). */
  readonly listed: number;
  readonly outside: number;
  readonly pages: readonly string[];
};

export type SitemapSettings = {
  readonly maxPages: number;
  readonly allowPrivate: readonly string[];
  /** The fetch's limits (tests shorten them). */
  readonly fetchOptions?: FetchOptions;
};

const withoutHash = (url: string) => url.split('#')[0] ?? url;

async function fetchSitemap(url: string, options: FetchOptions): Promise<ReturnType<typeof parseSitemap>> {
  try {
    return parseSitemap((await fetchPage(url, options)).text);
  } catch (error) {
    return {
      expected: 'a sitemap fetched within the limits',
      got: `${url}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

export async function readSitemapPages(start: URL, settings: SitemapSettings): Promise<SitemapPages | SitemapRefusal> {
  const options: FetchOptions = {
    ...settings.fetchOptions,
    allowPrivateRedirects: await isPrivateHost(start.hostname),
    allowPrivateHosts: settings.allowPrivate,
  };
  const top = await fetchSitemap(start.href, options);
  if (isSitemapRefusal(top)) return top;
  const sitemaps = [start.href];
  const pages = new Set<string>();
  let listed = 0;
  let outside = 0;
  const take = (locations: readonly string[]) => {
    for (const location of locations) {
      if (new URL(location).origin !== start.origin) {
        outside += 1;
        continue;
      }
      listed += 1;
      if (pages.size < settings.maxPages) pages.add(withoutHash(location));
    }
  };
  if (top.kind === 'urlset') take(top.locations);
  const children =
    top.kind === 'sitemapindex' ? top.locations.filter((url) => new URL(url).origin === start.origin) : [];
  for (const child of children.slice(0, MAX_CHILD_SITEMAPS)) {
    if (pages.size >= settings.maxPages) break;
    const sitemap = await fetchSitemap(child, options);
    if (isSitemapRefusal(sitemap)) return sitemap;
    sitemaps.push(child);
    // One level deep: an index listed by the index is not followed.
    if (sitemap.kind === 'urlset') take(sitemap.locations);
  }
  if (pages.size === 0)
    return {
      expected: `a sitemap that lists pages on ${start.origin}`,
      got: `no page on it (${outside} elsewhere) in ${sitemaps.length} sitemap(s)`,
    };
  return { sitemaps, listed, outside, pages: [...pages] };
}
