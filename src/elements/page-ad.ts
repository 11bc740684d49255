/**
 * `<page-ad type data-*>`: an ad slot. `custom` loads `data-src` (consent macros expanded) in
 * a sandboxed iframe; `fake` draws a local labelled placeholder and requests nothing;
 * `adsense` and `doubleclick` render through their network's script (./ad-networks/).
 */
import { diagnostic } from '../wire/diagnostic.ts';
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';
import { renderAdsense } from './ad-networks/adsense.ts';
import { renderDoubleclick } from './ad-networks/doubleclick.ts';
import type { ContentElement as ContentElementInstance, ContentElementClass } from './content-element.ts';
import { createFrame } from './frame.ts';

/** A network renderer: shows the slot, requests the ad, and may return how to destroy it. */
type Renderer = (ad: ContentElementInstance, isPersonalized: boolean) => (() => void) | undefined;
const RENDERERS = new Map<string | null, Renderer>([
  ['adsense', renderAdsense],
  ['doubleclick', renderDoubleclick],
]);
const SUPPORTED = ['custom', 'fake', ...RENDERERS.keys()];
const SANDBOX = 'allow-scripts allow-popups allow-popups-to-escape-sandbox allow-same-origin';

export function createPageAd(page: PageRuntime, ContentElement: ContentElementClass): PageElementConstructor {
  return class PageAdElement extends ContentElement {
    #destroy: (() => void) | undefined = undefined;

    override buildCallback() {
      const type = this.element.getAttribute('type');
      if (!type || !SUPPORTED.includes(type)) {
        this.report(diagnostic('unsupported-ad-type', SUPPORTED.join('|'), type));
      }
    }

    override async layoutCallback() {
      const type = this.element.getAttribute('type');
      if (type === 'fake') return this.show(this.#placeholder());
      const render = RENDERERS.get(type);
      if (render) return this.#render(render);
      const src = this.element.dataset.src;
      if (type !== 'custom') return;
      if (!src) return this.report(diagnostic('missing-attribute', 'a data-src attribute', src));
      const unlaid = this.unlaid;
      const url = await page.expandUrl(src);
      const frame = unlaid === this.unlaid && createFrame(this, url, SANDBOX);
      if (frame) this.show(frame);
    }

    override unlayoutCallback() {
      this.#destroy?.();
      this.#destroy = undefined;
      super.unlayoutCallback();
    }

    /** Personalised ads only when the consent snapshot says accepted at the time of the request. */
    async #render(render: Renderer) {
      const unlaid = this.unlaid;
      const state = await page.expandUrl('CONSENT_STATE', ['CONSENT_STATE']);
      if (unlaid === this.unlaid) this.#destroy = render(this, state === 'accepted');
    }

    #placeholder(): HTMLElement {
      const box = document.createElement('div');
      const width = this.element.getAttribute('width');
      const height = this.element.getAttribute('height');
      box.className = 'page-fake-ad';
      box.setAttribute('role', 'img');
      box.setAttribute('aria-label', 'Advertisement placeholder');
      box.textContent = this.element.dataset.label ?? (width && height ? `Ad ${width}×${height}` : 'Ad');
      return box;
    }
  };
}
