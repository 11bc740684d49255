/**
 * The URL rule (docs/runtime.md, "The URL rule"): a component loads only `http:` and `https:` URLs, given absolute or
 * relative to `base`. Anything else (`javascript:`, `data:`, `blob:`, `file:`, a relative URL on a
 * `data:`/`file:` page, text that is no URL) is refused. The browser's own parser decides, so
 * `JaVa\tScRiPt:` is seen as the browser sees it.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** What the refusal diagnostics say was expected. */
export const LOADABLE_URL = 'an http(s) or relative URL';

/** The resolved URL, or undefined when it may not be loaded. */
export function parseLoadableUrl(href: string, base: string): URL | undefined {
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
