/** `<page-img src width height layout>`: an <img> child, created only when laid out. */
import type { PageElementConstructor } from '../runtime/types.ts';
import type { ContentElementClass } from './content-element.ts';

export function createPageImg(ContentElement: ContentElementClass): PageElementConstructor {
  return class PageImgElement extends ContentElement {
    override isLayoutSupported(layout: string) {
      return layout !== 'container';
    }

    override layoutCallback() {
      const image = document.createElement('img');
      this.copyAttributes(image, ['src', 'srcset', 'sizes', 'alt', 'referrerpolicy', 'crossorigin']);
      image.decoding = 'async';
      this.show(image);
    }
  };
}
