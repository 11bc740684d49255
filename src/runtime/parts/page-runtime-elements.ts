/** `v0/page-runtime-elements.<hash>.js`: the built-in elements' implementations (src/runtime/lazy-elements.ts). */
import { createContentElement } from '../../elements/content-element.ts';
import { createPageAd } from '../../elements/page-ad.ts';
import { createPageIframe } from '../../elements/page-iframe.ts';
import { createPageImg } from '../../elements/page-img.ts';
import { createPagePixel } from '../../elements/page-pixel.ts';
import { definePart } from '../../browser-shared/parts.ts';
import { ELEMENTS_CSS, installStyles } from '../styles.ts';
import type { PageRuntime } from '../types.ts';

definePart('page-runtime-elements', {
  createElements(runtime: PageRuntime) {
    installStyles(document, ELEMENTS_CSS);
    const ContentElement = createContentElement(runtime);
    return {
      'page-img': createPageImg(ContentElement),
      'page-pixel': createPagePixel(runtime),
      'page-iframe': createPageIframe(ContentElement),
      'page-ad': createPageAd(runtime, ContentElement),
    };
  },
});
