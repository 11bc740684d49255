/**
 * `<page-ad type="adsense">`: an `<ins class="adsbygoogle">` with the element's `data-ad-*`,
 * AdSense's script loaded once per page, one `push({})` per slot, non-personalised unless
 * consent is accepted.
 */
import { diagnostic } from '../../wire/diagnostic.ts';
import type { ContentElement } from '../content-element.ts';
import { loadScriptOnce, readScriptUrl } from './script.ts';

type AdsByGoogle = object[] & { requestNonPersonalizedAds?: number };

const SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';
/** Every `data-ad-*` (client, slot, format, layout, layout-key, region, host, ...) and the responsive flag. */
const COPIED = /^data-(ad-|full-width-responsive$)/;

export function renderAdsense(ad: ContentElement, isPersonalized: boolean): undefined {
  const client = ad.element.dataset.adClient;
  if (!client) {
    ad.report(diagnostic('missing-attribute', 'a data-ad-client attribute', client));
    return;
  }
  const url = readScriptUrl(ad, 'adsense', SCRIPT);
  if (!url) return;
  url.searchParams.set('client', client);
  const slot = document.createElement('ins');
  slot.className = 'adsbygoogle';
  slot.style.display = 'block';
  ad.copyAttributes(
    slot,
    ad.element.getAttributeNames().filter((name) => COPIED.test(name)),
  );
  ad.show(slot);
  loadScriptOnce('adsense', url);
  const queue: AdsByGoogle = ((window as { adsbygoogle?: AdsByGoogle }).adsbygoogle ||= []);
  queue.requestNonPersonalizedAds = isPersonalized ? 0 : 1;
  queue.push({});
}
