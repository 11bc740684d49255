/**
 * The Better Ads density rule for mobile: on viewports narrower than 768 px, the in-content ads
 * (plus a sticky ad, counted once) take at most 30% of the main content's height. Pure.
 */

export const DENSITY_MAX_VIEWPORT_WIDTH = 768;
export const DENSITY_LIMIT = 0.3;

/** Heights in px: every ad counted, and the main content (which holds the in-content ads). */
export type Density = { readonly adHeight: number; readonly contentHeight: number };

/** Whether one more ad `height` px high keeps the share within the limit; the content grows by it too. */
export function isWithinDensity({ adHeight, contentHeight }: Density, height: number): boolean {
  return adHeight + height <= DENSITY_LIMIT * (contentHeight + height);
}

/** The share of the main content taken by ads (0 for empty content). */
export function densityOf({ adHeight, contentHeight }: Density): number {
  return contentHeight > 0 ? adHeight / contentHeight : 0;
}

/** Every ad on the page but the anchor ad: in-content, the publisher's own and side rails (what `maxAdCount` counts). */
export const countAds = (document: Document): number => document.querySelectorAll('page-ad:not([sticky])').length;

/** The main content: `<main>` (or `role=main`), else the first `<article>`, else `<body>`. */
export function findMainContent(document: Document): Element {
  return document.querySelector('main,[role=main]') ?? document.querySelector('article') ?? document.body;
}
