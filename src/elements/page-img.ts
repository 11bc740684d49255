/** `<page-img src width height layout>`: an <img> child, created only when laid out. */
import type { PageElementConstructor } from '../runtime/types.ts';
import type { ContentElementClass } from './content-element.ts';
import { readLoadableUrl } from '../wire/url.ts';

export function createPageImg(ContentElement: ContentElementClass): PageElementConstructor {
  return class PageImgElement extends ContentElement {
    override isLayoutSupported(layout: string) {
      return layout !== 'container';
    }

    override layoutCallback() {
      // `src` and every `srcset` candidate must be loadable, else no image at all.
      const { element } = this;
      const urls = `${element.getAttribute('src') ?? ''},${element.getAttribute('srcset') ?? ''}`
        .split(',')
        .map((url) => url.trim().split(/\s/)[0]);
      if (!urls.every((url) => !url || readLoadableUrl(url, document.baseURI, this))) return;
      const image = document.createElement('img');
      this.copyAttributes(image, ['src', 'srcset', 'sizes', 'alt', 'referrerpolicy', 'crossorigin']);
      image.decoding = 'async';
      this.show(image);
    }
  };
}
