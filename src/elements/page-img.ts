/** `<page-img src width height layout>`: an <img> child, created only when laid out. */
import type { PageElementConstructor, PageRuntime } from '../runtime/types.ts';

const COPIED = ['src', 'srcset', 'sizes', 'alt', 'referrerpolicy', 'crossorigin'];

export function createPageImg(page: PageRuntime): PageElementConstructor {
  return class PageImgElement extends page.PageElement {
    #image: HTMLImageElement | null = null;

    override isLayoutSupported(layout: string) {
      return layout !== 'container';
    }

    override layoutCallback() {
      const image = (this.#image = document.createElement('img'));
      for (const name of COPIED) {
        const value = this.element.getAttribute(name);
        if (value !== null) image.setAttribute(name, value);
      }
      image.className = 'page-fill';
      image.decoding = 'async';
      this.element.append(image);
    }

    override unlayoutCallback() {
      this.#image?.remove();
      this.#image = null;
    }
  };
}
