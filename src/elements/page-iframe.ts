/** `<page-iframe src width height layout sandbox>`: a sandboxed iframe, created when laid out. */
import { diagnostic } from '../runtime/diagnostics.ts';
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';
import { createFrame } from './frame.ts';

export function createPageIframe(page: PageRuntime): PageElementConstructor {
  return class PageIframeElement extends page.PageElement {
    #frame: HTMLIFrameElement | null = null;

    override isLayoutSupported(layout: string) {
      return layout !== 'container';
    }

    override layoutCallback() {
      const src = this.element.getAttribute('src');
      if (!src) return this.report(diagnostic('missing-attribute', 'a src attribute', src));
      const sandbox = this.element.getAttribute('sandbox') ?? 'allow-scripts allow-popups';
      this.#frame = createFrame(this, src, sandbox);
      this.element.append(this.#frame);
    }

    override unlayoutCallback() {
      this.#frame?.remove();
      this.#frame = null;
    }
  };
}
