/**
 * First or third party, by registrable domain ("site"), as the browser draws the line: the
 * public suffix list that `tldts` bundles (private suffixes included, so two `github.io` pages
 * are two sites). A name with no registrable domain (an IP address, `localhost`) is its own
 * site, so `127.0.0.1` and `localhost` are two sites; a file page's site is `file:`, which makes
 * every http(s) request from it third-party.
 */
import { getDomain } from 'tldts';

/** The site of a URL, or null for a URL that is not http(s) or file. */
export function siteOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === 'file:') return 'file:';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

export const isThirdParty = (url: string, pageSite: string): boolean => {
  const site = siteOf(url);
  return site !== null && site !== pageSite;
};

/** The host of an http(s) URL, lower case; '' otherwise. */
export function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname.toLowerCase() : '';
  } catch {
    return '';
  }
}

/** The `--allow` entry that covers the URL's host (the host itself or a parent of it), if any. */
export function allowedBy(url: string, allow: readonly string[]): string | undefined {
  const host = hostOf(url);
  return host ? allow.find((entry) => host === entry || host.endsWith(`.${entry}`)) : undefined;
}

/** The same site's registrable domain for a cookie's `domain` (a leading dot is dropped). */
export const siteOfCookieDomain = (domain: string): string | null => siteOf(`http://${domain.replace(/^\./, '')}/`);
