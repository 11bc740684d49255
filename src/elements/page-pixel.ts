/** `<page-pixel src>`: one GET to `src` (macros expanded) when built. */
import { diagnostic } from '../runtime/diagnostics.ts';
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';

export function createPagePixel(page: PageRuntime): PageElementConstructor {
  return class PagePixelElement extends page.PageElement {
    override async buildCallback() {
      const src = this.element.getAttribute('src');
      if (!src) return this.report(diagnostic('missing-attribute', 'a src attribute', src));
      const image = new Image();
      image.referrerPolicy = this.element.getAttribute('referrerpolicy') ?? '';
      image.src = await page.expandUrl(src);
    }
  };
}
