/**
 * `<page-ad type data-*>`: an ad slot. `custom` loads `data-src` (consent macros expanded) in
 * a sandboxed iframe; `fake` draws a local labelled placeholder and requests nothing.
 */
import { diagnostic } from '../runtime/diagnostics.ts';
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';
import type { ContentElementClass } from './content-element.ts';
import { createFrame } from './frame.ts';

const SUPPORTED = ['custom', 'fake'];
const SANDBOX = 'allow-scripts allow-popups allow-popups-to-escape-sandbox allow-same-origin';

export function createPageAd(page: PageRuntime, ContentElement: ContentElementClass): PageElementConstructor {
  return class PageAdElement extends ContentElement {
    override buildCallback() {
      const type = this.element.getAttribute('type');
      if (!type || !SUPPORTED.includes(type)) {
        this.report(diagnostic('unsupported-ad-type', SUPPORTED.join('|'), type));
      }
    }

    override async layoutCallback() {
      const type = this.element.getAttribute('type');
      if (type === 'fake') return this.show(this.#placeholder());
      const src = this.element.dataset.src;
      if (type !== 'custom') return;
      if (!src) return this.report(diagnostic('missing-attribute', 'a data-src attribute', src));
      const unlaid = this.unlaid;
      const url = await page.expandUrl(src);
      const frame = unlaid === this.unlaid && createFrame(this, url, SANDBOX);
      if (frame) this.show(frame);
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
