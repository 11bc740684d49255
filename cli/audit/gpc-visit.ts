/**
 * The GPC visit (docs/validator.md, "Global Privacy Control"): on a page set up for US readers,
 * after the journeys, one more reader with a fresh profile whose browser sends Global Privacy
 * Control: `Sec-GPC: 1` on every request and `navigator.globalPrivacyControl === true` from an
 * init script. The page is opened with the journeys' guards (address guard, navigation guard,
 * bounds) and, where the page links to its own debug geo hash for a US place, with that hash; the
 * network settles; then whether `<page-consent>` has `page-consent-gpc-honored` (the opt-out is
 * in force) and whether the page's visible text says "Opt-out request honored".
 */
import type { Browser, Page } from 'playwright-core';
import type { Bounds } from './bounds.ts';
import { openGuardedContext, watchCrashes } from './journey.ts';
import { guardNavigation } from './navigation-guard.ts';
import { type LoggedRequest, startNetworkLog } from './network-log.ts';
import { isPromptShown } from './prompt.ts';
import type { GpcView } from './report.ts';
import { settle } from './settle.ts';
import { open } from './visit.ts';

/** The notice California's regulations ask for, in either spelling. */
export const GPC_NOTICE = /opt-out request honou?red/i;
export const GPC_HONORED_CLASS = 'page-consent-gpc-honored';
const GPC_SCRIPT =
  "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true, enumerable: true });";
const POLL_MS = 50;

export type GpcVisitOptions = {
  /** The debug geo hash to open the page with (`page-geo=us-ca`), or null. */
  readonly geoHash: string | null;
  readonly allowPrivate: readonly string[];
  /** How long the honoured class (and then the notice) may take after the network settled. */
  readonly waitMs: number;
  readonly bounds: Bounds;
};

/** The URL the visit opens: the page with the geo hash added, unless its own hash already names a place. */
export function gpcVisitUrl(target: URL, geoHash: string | null): string {
  if (geoHash === null || /page-geo=/i.test(target.hash)) return target.href;
  const url = new URL(target.href);
  url.hash = url.hash.length > 1 ? `${url.hash.slice(1)}&${geoHash}` : geoHash;
  return url.href;
}

/** The honoured class and the notice as the page shows them now (neither while it navigates). */
const readGpc = (page: Page): Promise<GpcView> =>
  page
    .evaluate(
      ([name, notice]) => ({
        honored: document.querySelector(`page-consent.${name}`) !== null,
        noticeShown: new RegExp(notice, 'i').test(document.body?.innerText ?? ''),
      }),
      [GPC_HONORED_CLASS, GPC_NOTICE.source] as const,
    )
    .catch(() => ({ honored: false, noticeShown: false }));

/** Polls until the notice shows under the class, or the prompt shows instead, or `waitMs` passed. */
async function waitForGpc(page: Page, waitMs: number): Promise<GpcView> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const seen = await readGpc(page);
    if ((seen.honored && seen.noticeShown) || Date.now() >= deadline) return seen;
    if (!seen.honored && (await isPromptShown(page).catch(() => false))) return seen;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The visit's outcome, or why it has none (`page unreachable: ...`, `the browser failed: ...`). */
export async function runGpcVisit(
  browser: Browser,
  target: URL,
  options: GpcVisitOptions,
): Promise<GpcView | { readonly failure: string }> {
  const { bounds } = options;
  const { context, close } = await openGuardedContext(browser, target, options, { 'Sec-GPC': '1' });
  try {
    await context.addInitScript({ content: GPC_SCRIPT });
    watchCrashes(context, bounds);
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const requests: LoggedRequest[] = [];
    const log = await startNetworkLog(session, { requests, add: bounds.capped(requests, 'requests') });
    const guard = await guardNavigation(session, target);
    const visit = await open(page, gpcVisitUrl(target, options.geoHash), guard);
    if ('failure' in visit) return { failure: `page unreachable: ${visit.failure}` };
    await settle(log);
    return await waitForGpc(page, options.waitMs);
  } catch (error) {
    const tripped = bounds.tripped();
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
    return { failure: tripped ? `stopped: ${tripped.detail}` : `the browser failed: ${reason}` };
  } finally {
    await close();
  }
}
