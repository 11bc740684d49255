/** `<page-pixel src>`: one GET to `src` (macros expanded, http(s) only) when built. */
import { diagnostic } from '../wire/diagnostic.ts';
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';
import { readLoadableUrl } from '../wire/url.ts';

export function createPagePixel(page: PageRuntime): PageElementConstructor {
  return class PagePixelElement extends page.PageElement {
    override async buildCallback() {
      const src = this.element.getAttribute('src');
      if (!src) return this.report(diagnostic('missing-attribute', 'a src attribute', src));
      const url = readLoadableUrl(await page.expandUrl(src), document.baseURI, this);
      if (!url) return;
      const image = new Image();
      image.referrerPolicy = this.element.getAttribute('referrerpolicy') ?? '';
      image.src = url.href;
    }
  };
}
