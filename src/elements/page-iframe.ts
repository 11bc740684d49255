/** `<page-iframe src width height layout sandbox>`: a sandboxed iframe, created when laid out. */
import { diagnostic } from '../wire/diagnostic.ts';
import type { PageElementConstructor } from '../runtime/types.ts';
import type { ContentElementClass } from './content-element.ts';
import { createFrame } from './frame.ts';

export function createPageIframe(ContentElement: ContentElementClass): PageElementConstructor {
  return class PageIframeElement extends ContentElement {
    override isLayoutSupported(layout: string) {
      return layout !== 'container';
    }

    override layoutCallback() {
      const src = this.element.getAttribute('src');
      if (!src) return this.report(diagnostic('missing-attribute', 'a src attribute', src));
      const frame = createFrame(this, src, this.element.getAttribute('sandbox') ?? 'allow-scripts allow-popups');
      if (frame) this.show(frame);
    }
  };
}
