/**
 * The vignette of docs/auto-ads.md, "Vignette": a full-screen ad in a modal dialog between two
 * pages of a visit, shown when the reader follows a same-site link (the navigation goes on when
 * it closes) or on the opt-in triggers (the tab shown again after a long absence, the end of the
 * main content reached). Never on the first page view of a visit, never on a page reached with the
 * back or forward buttons, at most once per interval, only while `<page-auto-ads>` is allowed by
 * its consent policy and, where TCF applies, purpose 1 is consented. Loaded as the part
 * `page-auto-ads-vignette`; choices: docs/decisions/vignettes-and-side-rails.md.
 */
import type { Attributes } from '../wire/auto-ads-attributes.ts';
import { readFormat, readVignette } from '../wire/auto-ads-formats.ts';
import { mergeAttributes } from './attributes.ts';
import type { FormatOptions } from './parts.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { collector, readNumber } from '../wire/values.ts';
import { findMainContent } from './density.ts';
import { watchStorageConsent, watchTcf } from './storage-consent.ts';

/** The site storage key (src/runtime/storage.ts) of the time the last vignette was shown, in ms. */
export const VIGNETTE_STORAGE_KEY = 'auto-ads-vignette';

export type VignetteOptions = FormatOptions;

/** A visit starts with a page reached from no page or from another origin. */
export function isFirstPageView(referrer: string, origin: string): boolean {
  try {
    return new URL(referrer).origin !== origin;
  } catch {
    return true;
  }
}

/** The page was reached with the back or forward buttons (a bfcache restore is told by `pageshow`). */
export const isBackForward = (): boolean =>
  (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type === 'back_forward';

/**
 * The same-origin http(s) URL a click follows, when the vignette may take it: a trusted, unmodified
 * primary-button click not handled by the page, on a link without `download`, opening in this tab
 * (no target or `_self`), outside `data-no-auto-ads` and outside ads, and not to a place in this page.
 */
export function findInterceptedUrl(event: MouseEvent, location: Location): URL | undefined {
  if (!event.isTrusted || event.defaultPrevented || event.button !== 0) return;
  if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.('a[href],area[href]');
  if (!link || link.closest('[data-no-auto-ads],page-ad,dialog') || link.hasAttribute('download')) return;
  const target = link.getAttribute('target') ?? document.querySelector('base[target]')?.getAttribute('target') ?? '';
  if (target !== '' && target.toLowerCase() !== '_self') return;
  let url: URL;
  try {
    url = new URL(link.getAttribute('href')!, document.baseURI);
  } catch {
    return;
  }
  if (url.origin !== location.origin || !/^https?:$/.test(url.protocol)) return;
  const here = new URL(location.href);
  if (url.hash && url.pathname === here.pathname && url.search === here.search) return;
  return url;
}

/** Capped while less than the interval has passed since `last` (a time in the future caps nothing). */
export function isCapped(last: number | undefined, now: number, intervalSeconds: number): boolean {
  return last !== undefined && now >= last && now - last < intervalSeconds * 1000;
}

/** The stored time, read as a wire value: anything but a plausible time is no time. */
function readStoredTime(value: unknown): number | undefined {
  return value === undefined ? undefined : readNumber(0, 8.64e15)(collector('storage-corrupt'), value, 'time');
}

/** Calls `onLoad` once the ad shows its content: a frame once loaded, anything else at once. */
function watchLoad(ad: Element, onLoad: () => void): MutationObserver {
  const observer = new MutationObserver(() => {
    const content = ad.querySelector(':scope > .page-fill');
    if (!content) return;
    observer.disconnect();
    if (content.tagName === 'IFRAME') content.addEventListener('load', onLoad, { once: true });
    else onLoad();
  });
  observer.observe(ad, { childList: true });
  return observer;
}

const DIALOG_STYLE =
  'position:fixed;inset:0;width:100vw;height:100vh;max-width:none;max-height:none;margin:0;padding:0;border:0;' +
  'background:rgba(0,0,0,.85);display:flex;align-items:center;justify-content:center;overscroll-behavior:contain';
const CLOSE_STYLE =
  'position:absolute;top:8px;right:8px;min-width:44px;min-height:44px;font:16px/1 sans-serif;' +
  'background:#fff;color:#000;border:2px solid #000;border-radius:4px;cursor:pointer';

/** Attributes of the vignette's ad before network, config and placement layers. */
const VIGNETTE_DEFAULTS: Attributes = { layout: 'fixed', width: '300', height: '250' };

/** Starts the triggers; does nothing on the first page view of a visit or a back/forward one. */
export function startVignette({ page, formats, shared, markers, isActive, report }: VignetteOptions): void {
  const parsed = readFormat(formats, 'vignette', readVignette);
  for (const d of parsed.diagnostics) report(d, 'warn');
  const spec = parsed.value;
  if (!spec) return;
  const attributes = mergeAttributes(VIGNETTE_DEFAULTS, shared, spec.attributes, markers);
  if (isFirstPageView(document.referrer, location.origin) || isBackForward()) return;
  const tcf = watchTcf();
  const isStorageAllowed = watchStorageConsent(page, tcf);
  let shownAt: number | undefined;
  let isShowing = false;
  let isRestored = false;
  addEventListener('pageshow', (event) => {
    if (event.persisted) isRestored = true;
  });

  const canShow = () => {
    if (isShowing || isRestored || !isActive() || tcf() !== true) return false;
    const stored = isStorageAllowed() ? readStoredTime(page.storage.get(VIGNETTE_STORAGE_KEY)) : undefined;
    const now = Date.now();
    return !isCapped(shownAt, now, spec.intervalSeconds) && !isCapped(stored, now, spec.intervalSeconds);
  };

  /** The overlay; `url`: where the reader was going, followed once it closes. */
  const show = (url?: URL, link?: HTMLElement) => {
    isShowing = true;
    shownAt = Date.now();
    // Where the focus goes back: the link, else what had it before (the opt-in triggers).
    const back = link ?? (document.activeElement as HTMLElement | null);
    if (isStorageAllowed()) page.storage.set(VIGNETTE_STORAGE_KEY, shownAt);
    const dialog = document.createElement('dialog');
    dialog.className = 'page-vignette';
    dialog.setAttribute('aria-label', attributes['data-label'] ?? 'Advertisement');
    dialog.style.cssText = DIALOG_STYLE;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'page-vignette-close';
    close.textContent = url ? 'Close ad and continue' : 'Close ad';
    close.style.cssText = CLOSE_STYLE;
    const ad = document.createElement('page-ad');
    for (const [name, value] of Object.entries(attributes)) ad.setAttribute(name, value);
    ad.removeAttribute('sticky');
    let isLoaded = false;
    const observer = watchLoad(ad, () => (isLoaded = true));
    dialog.append(close, ad);
    const root = document.documentElement.style;
    const { overflow, scrollbarGutter } = root;
    // No scrolling behind the overlay; the stable gutter keeps the page from moving sideways.
    Object.assign(root, { overflow: 'hidden', scrollbarGutter: 'stable' });
    document.body.append(dialog);
    dialog.showModal();
    close.focus();

    const finish = () => {
      if (!isShowing) return;
      isShowing = false;
      clearTimeout(timer);
      observer.disconnect();
      dialog.close();
      dialog.remove();
      Object.assign(root, { overflow, scrollbarGutter });
      back?.focus({ preventScroll: true });
      if (url) location.assign(url.href);
    };
    const timer = setTimeout(() => {
      if (isLoaded) return;
      report(
        diagnostic('auto-ads-vignette-timeout', `the vignette's ad loaded within ${spec.timeoutMs} ms`, 'none'),
        'warn',
      );
      finish();
    }, spec.timeoutMs);
    close.addEventListener('click', finish);
    // The close button is the overlay's one focus stop: Tab does not leave it for the browser's UI.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      event.preventDefault();
      close.focus();
    });
    // Escape: `cancel` then `close`, or `close` alone (Chromium's close watcher without user activation).
    dialog.addEventListener('close', finish);
  };

  document.addEventListener('click', (event) => {
    const url = findInterceptedUrl(event, location);
    if (!url || !canShow()) return;
    event.preventDefault();
    show(url, (event.target as Element).closest<HTMLElement>('a,area') ?? undefined);
  });

  const { tabReturnSeconds } = spec;
  if (tabReturnSeconds !== undefined) {
    let hiddenAt: number | undefined;
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) hiddenAt = Date.now();
      else if (hiddenAt !== undefined && Date.now() - hiddenAt >= tabReturnSeconds * 1000 && canShow()) show();
    });
  }

  if (spec.isArticleEndTrigger) {
    let isReached = false;
    const stop = page.viewport.onScroll(() => {
      if (isReached || findMainContent(document).getBoundingClientRect().bottom > innerHeight) return;
      isReached = true;
      stop();
      if (canShow()) show();
    });
  }
}
