/**
 * Writes an element's layout box (parsed by src/wire/layout.ts) before it builds, so that
 * building never shifts the page.
 */
import type { LayoutSpec } from '../wire/layout.ts';

/**
 * Reserves the element's box: display and position come from the runtime stylesheet
 * (`.page-layout-*`), sizes from inline styles. A `nodisplay` element is hidden inline and needs
 * no stylesheet: a page whose only elements are `nodisplay` (a consent element) gets none.
 */
export function applyLayout(element: HTMLElement, { layout, width, height }: LayoutSpec): void {
  const style = element.style;
  element.classList.add(`page-layout-${layout}`);
  if (layout === 'nodisplay') style.display = 'none';
  if (layout === 'fixed') style.width = `${width}px`;
  if (layout === 'fixed' || layout === 'fixed-height') style.height = `${height}px`;
  if (layout === 'responsive' || layout === 'intrinsic') style.aspectRatio = `${width}/${height}`;
  if (layout === 'intrinsic') style.maxWidth = `${width}px`;
}
