/**
 * The URL rule (docs/runtime.md, "The URL rule"): a component loads only `http:` and `https:` URLs, given absolute or
 * relative to `base`. Anything else (`javascript:`, `data:`, `blob:`, `file:`, a relative URL on a
 * `data:`/`file:` page, text that is no URL) is refused. The browser's own parser decides, so
 * `JaVa\tScRiPt:` is seen as the browser sees it.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** What the refusal diagnostics say was expected. */
export const LOADABLE_URL = 'an http(s) or relative URL';

/** The resolved URL, or undefined when it may not be loaded (`base` absent: `href` must be absolute). */
export function parseLoadableUrl(href: string, base?: string): URL | undefined {
  try {
    const url = new URL(href, base);
    return /^https?:$/.test(url.protocol) ? url : undefined;
  } catch {}
}

/** `parseLoadableUrl` for components: a refused URL is reported once, as `url-refused`, to `owner`. */
export function readLoadableUrl(href: string, base: string, owner: { report(d: Diagnostic): void }): URL | undefined {
  const url = parseLoadableUrl(href, base);
  if (!url) owner.report(diagnostic('url-refused', LOADABLE_URL, href));
  return url;
}

/**
 * Whether a host name, as the URL parser writes it (lower case, IPv6 in brackets), is a loopback
 * host: `localhost`, `127.x.x.x` or `[::1]`. The one loopback rule of the product, for its
 * development conveniences: http consent endpoints, the geo debug hash, the server's generated
 * admin token and its cookie attributes (the server passes `hostOf` of what it reads).
 */
export const isLoopbackHost = (hostname: string): boolean => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(hostname);

/** A host as the URL parser writes it: lower case, a bare IPv6 address in brackets (`::1` -> `[::1]`). */
export const hostOf = (host: string): string =>
  (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();
