/**
 * The Global Vendor List the TC strings are built on, fetched from `tcf.vendorListHref` (docs/consent.md,
 * "TC strings from our own prompts"): at most once per decision, within VENDOR_LIST_TIMEOUT_MS and VENDOR_LIST_MAX_BYTES,
 * read through the GVL parser, and kept for the page's life once it loaded. A failure is a
 * Parsed null naming the cause; the next decision tries again. Google's ATP list for
 * `tcf.googleAtps: "all"` (`tcf.googleAtpListHref`) is loaded the same way.
 */
import type { Parsed } from '../runtime/index.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { type GvlJson, parseGvl } from '../wire/gvl.ts';
import { parseAtpIds } from '../wire/google-atps.ts';
import { readBody } from '../wire/read-body.ts';
import { parseJsonText } from '../wire/values.ts';

export const VENDOR_LIST_TIMEOUT_MS = 5000;
/** The byte cap of the list (docs/reliability.md, "Byte caps"): several times the IAB's own. */
export const VENDOR_LIST_MAX_BYTES = 4 << 20;

type Kind<T> = { readonly parse: (json: unknown) => Parsed<T | null>; readonly code: string; readonly what: string };

const GVL: Kind<GvlJson> = { parse: parseGvl, code: 'consent-tcf-vendor-list-failed', what: 'a GVL v3 JSON' };
const ATPS: Kind<number[]> = { parse: parseAtpIds, code: 'consent-google-atp-list-invalid', what: "Google's ATP list" };

async function fetchList<T>(href: string, { parse, code, what }: Kind<T>): Promise<Parsed<T | null>> {
  const failed = (cause: string): Parsed<null> => ({
    value: null,
    diagnostics: [diagnostic(code, `${what} from ${href}`, cause)],
  });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VENDOR_LIST_TIMEOUT_MS);
  try {
    const response = await fetch(href, { signal: controller.signal, credentials: 'omit' });
    if (!response.ok) return failed(`HTTP ${response.status}`);
    const text = await readBody(response, VENDOR_LIST_MAX_BYTES);
    if (typeof text !== 'string') return { value: null, diagnostics: [text] };
    const json = parseJsonText(text);
    return json === undefined ? failed('text that is not JSON') : parse(json);
  } catch {
    return failed(
      controller.signal.aborted ? `no answer within ${VENDOR_LIST_TIMEOUT_MS / 1000} s` : 'network or CORS error',
    );
  } finally {
    clearTimeout(timer);
  }
}

const loaded = new Map<string, Promise<Parsed<unknown>>>();

/** The list at `href`: the kept one, the one being fetched, or a new fetch. */
function loadList<T>(href: string, kind: Kind<T>): Promise<Parsed<T | null>> {
  let list = loaded.get(href) as Promise<Parsed<T | null>> | undefined;
  if (!list) {
    list = fetchList(href, kind);
    loaded.set(href, list);
    list.then(({ value }) => value || loaded.delete(href));
  }
  return list;
}

export const loadVendorList = (href: string) => loadList(href, GVL);
/** The ids of Google's ATP list, as the reference server serves it at `/tcf/google-atps.json`. */
export const loadAtpIds = (href: string) => loadList(href, ATPS);
