/**
 * Base of the built-in elements that show one child (an image, a frame, a placeholder) while
 * laid out and remove it on unlayout.
 */
import type { PageRuntime } from '../runtime/types.ts';

export function createContentElement(page: PageRuntime) {
  return class ContentElement extends page.PageElement {
    #content: HTMLElement | null = null;
    /** Counts unlayouts, so that an asynchronous layout can tell it was undone meanwhile. */
    unlaid = 0;

    /** Replaces the shown child; it fills the element's box. */
    show(content: HTMLElement): void {
      this.unlayoutCallback();
      content.classList.add('page-fill');
      this.element.append((this.#content = content));
    }

    /** Copies the named attributes that the element has onto `target`. */
    copyAttributes(target: Element, names: readonly string[]): void {
      for (const name of names) {
        const value = this.element.getAttribute(name);
        if (value !== null) target.setAttribute(name, value);
      }
    }

    override unlayoutCallback() {
      this.unlaid++;
      this.#content?.remove();
      this.#content = null;
    }
  };
}

export type ContentElementClass = ReturnType<typeof createContentElement>;
export type ContentElement = InstanceType<ContentElementClass>;
