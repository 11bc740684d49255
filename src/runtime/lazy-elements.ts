/**
 * The built-in elements as the runtime core ships them: each tag is defined at once, so the
 * lifecycle reserves its box (layout, size) and asks the consent gate before anything else
 * arrives; the implementations are the elements part (`v0/page-runtime-elements.<hash>.js`),
 * requested at the first build. Without the part (one diagnostic) the element stays empty.
 */
import { PageElement } from './element.ts';
import type { Layout, PageElementConstructor, PageElementInstance, PageRuntime } from './types.ts';

export type ElementsPart = { createElements(runtime: PageRuntime): Readonly<Record<string, PageElementConstructor>> };

export const BUILT_IN_TAGS = ['page-img', 'page-pixel', 'page-iframe', 'page-ad'] as const;

/** Elements that show one child filling their box: a `container` layout gives them no box. */
const NEEDS_BOX = ['page-img', 'page-iframe'];

export function defineLazyElements(runtime: PageRuntime, load: () => Promise<ElementsPart | undefined>): void {
  let classes: Promise<Readonly<Record<string, PageElementConstructor>> | undefined> | undefined;
  for (const tag of BUILT_IN_TAGS) {
    runtime.define(
      tag,
      class extends PageElement {
        #inner: PageElementInstance | undefined;

        override isLayoutSupported(layout: Layout) {
          return layout !== 'container' || !NEEDS_BOX.includes(tag);
        }

        override async buildCallback() {
          const Implementation = (await (classes ??= load().then((part) => part?.createElements(runtime))))?.[tag];
          if (!Implementation) return;
          const inner = new Implementation(this.element, runtime) as PageElement;
          inner.layout = this.layout;
          await inner.buildCallback();
          this.#inner = inner;
        }

        override layoutCallback() {
          return this.#inner?.layoutCallback();
        }

        override unlayoutCallback() {
          this.#inner?.unlayoutCallback();
        }
      },
    );
  }
}
