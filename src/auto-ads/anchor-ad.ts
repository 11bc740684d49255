/**
 * The anchor (sticky) ad of docs/auto-ads.md, "Anchor ad": one `<page-ad sticky>` fixed to the top or bottom
 * edge, unless the page has one already, at most 30% of the viewport high, with a close
 * button that removes it for the page view. It ignores spacing and the ad count.
 */
import { mergeAttributes } from './attributes.ts';
import type { Attributes } from '../wire/auto-ads-attributes.ts';

/** Inserts the anchor ad after `host`; false when a sticky ad already exists. */
export function insertAnchorAd(host: Element, attributes: Attributes): boolean {
  const document = host.ownerDocument;
  if (document.querySelector('page-ad[sticky],page-sticky-ad')) return false;
  const merged = mergeAttributes({ layout: 'fixed-height', height: '100' }, attributes);
  const side = merged.sticky === 'top' ? 'top' : 'bottom';
  const ad = document.createElement('page-ad');
  for (const [name, value] of Object.entries(merged)) ad.setAttribute(name, value);
  ad.setAttribute('sticky', side);
  // Outside the page's landmarks: its own labelled region for assistive technology.
  ad.setAttribute('role', 'complementary');
  ad.setAttribute('aria-label', merged['data-label'] ?? 'Advertisement');
  host.after(ad);
  // After insertion: the runtime writes the layout box when the element connects.
  Object.assign(ad.style, {
    position: 'fixed',
    left: '0',
    right: '0',
    [side]: '0',
    zIndex: '2147483000',
    maxHeight: '30vh',
  });
  ad.append(createCloseButton(ad));
  return true;
}

/** A real button (focusable, Enter and Space) above the ad's content; removing the ad unlays it. */
function createCloseButton(ad: Element): HTMLButtonElement {
  const button = ad.ownerDocument.createElement('button');
  button.type = 'button';
  button.className = 'page-anchor-ad-close';
  button.setAttribute('aria-label', 'Close ad');
  button.textContent = '×';
  button.style.cssText =
    'position:absolute;top:0;right:0;z-index:1;min-width:32px;min-height:32px;font:20px/1 sans-serif';
  button.addEventListener('click', () => ad.remove());
  return button;
}
