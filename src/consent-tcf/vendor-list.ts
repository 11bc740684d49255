/**
 * The Global Vendor List the TC strings are built on, fetched from `tcf.vendorListHref` (docs/consent.md,
 * "TC strings from our own prompts"): at most once per decision, within VENDOR_LIST_TIMEOUT_MS and VENDOR_LIST_MAX_BYTES,
 * read through the GVL parser, and kept for the page's life once it loaded. A failure is a
 * Parsed null naming the cause; the next decision tries again.
 */
import type { Parsed } from '../runtime/index.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { type GvlJson, parseGvl } from '../wire/gvl.ts';
import { readBody } from '../wire/read-body.ts';
import { parseJsonText } from '../wire/values.ts';

export const VENDOR_LIST_TIMEOUT_MS = 5000;
/** The byte cap of the list (docs/reliability.md, "Byte caps"): several times the IAB's own. */
export const VENDOR_LIST_MAX_BYTES = 4 << 20;

const failed = (href: string, cause: string): Parsed<null> => ({
  value: null,
  diagnostics: [diagnostic('consent-tcf-vendor-list-failed', `a GVL v3 JSON from ${href}`, cause)],
});

async function fetchVendorList(href: string): Promise<Parsed<GvlJson | null>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VENDOR_LIST_TIMEOUT_MS);
  try {
    const response = await fetch(href, { signal: controller.signal, credentials: 'omit' });
    if (!response.ok) return failed(href, `HTTP ${response.status}`);
    const text = await readBody(response, VENDOR_LIST_MAX_BYTES);
    if (typeof text !== 'string') return { value: null, diagnostics: [text] };
    const json = parseJsonText(text);
    return json === undefined ? failed(href, 'text that is not JSON') : parseGvl(json);
  } catch {
    return failed(
      href,
      controller.signal.aborted ? `no answer within ${VENDOR_LIST_TIMEOUT_MS / 1000} s` : 'network or CORS error',
    );
  } finally {
    clearTimeout(timer);
  }
}

const loaded = new Map<string, Promise<Parsed<GvlJson | null>>>();

/** The list at `href`: the kept one, the one being fetched, or a new fetch. */
export function loadVendorList(href: string): Promise<Parsed<GvlJson | null>> {
  let list = loaded.get(href);
  if (!list) {
    list = fetchVendorList(href);
    loaded.set(href, list);
    list.then(({ value }) => value || loaded.delete(href));
  }
  return list;
}
