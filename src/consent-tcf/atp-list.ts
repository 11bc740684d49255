/**
 * Google's ATP list for `tcf.googleAtps: "all"` (docs/decisions/additional-consent.md), fetched
 * from `tcf.googleAtpListHref` like the GVL (src/consent-tcf/vendor-list.ts): within
 * VENDOR_LIST_TIMEOUT_MS and ATP_LIST_MAX_BYTES, read through the wire layer's CSV reader, kept
 * for the page's life once it loaded. A failure is a Parsed null naming the cause.
 */
import type { Parsed } from '../runtime/index.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import {
  ATP_LIST_INVALID,
  ATP_LIST_MAX_BYTES,
  type GoogleAtp,
  parseGoogleAtpList,
} from '../wire/additional-consent.ts';
import { readBody } from '../wire/read-body.ts';
import { VENDOR_LIST_TIMEOUT_MS } from './vendor-list.ts';

async function fetchAtpList(href: string): Promise<Parsed<GoogleAtp[] | null>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), VENDOR_LIST_TIMEOUT_MS);
  const failed = (cause: string): Parsed<null> => ({
    value: null,
    diagnostics: [diagnostic(ATP_LIST_INVALID, `Google's ATP list (CSV) from ${href}`, cause)],
  });
  try {
    const response = await fetch(href, { signal: controller.signal, credentials: 'omit' });
    if (!response.ok) return failed(`HTTP ${response.status}`);
    const text = await readBody(response, ATP_LIST_MAX_BYTES);
    return typeof text === 'string' ? parseGoogleAtpList(text) : { value: null, diagnostics: [text] };
  } catch {
    return failed(
      controller.signal.aborted ? `no answer within ${VENDOR_LIST_TIMEOUT_MS / 1000} s` : 'network or CORS error',
    );
  } finally {
    clearTimeout(timer);
  }
}

const loaded = new Map<string, Promise<Parsed<GoogleAtp[] | null>>>();

/** The list at `href`: the kept one, the one being fetched, or a new fetch. */
export function loadAtpList(href: string): Promise<Parsed<GoogleAtp[] | null>> {
  let list = loaded.get(href);
  if (!list) {
    list = fetchAtpList(href);
    loaded.set(href, list);
    list.then(({ value }) => value || loaded.delete(href));
  }
  return list;
}
