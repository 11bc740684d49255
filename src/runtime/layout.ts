/**
 * Layouts: which box an element gets before it builds. `parseLayout` is pure; `applyLayout`
 * writes the box so that building never shifts the page.
 */
import { diagnostic, type Parsed } from './diagnostics.ts';
import type { Layout } from './types.ts';

export type LayoutSpec = { readonly layout: Layout; readonly width?: number; readonly height?: number };

const LAYOUTS: readonly Layout[] = [
  'nodisplay', 'fixed', 'fixed-height', 'responsive', 'fill', 'container', 'flex-item', 'intrinsic',
];

/** What each layout needs: w = width, h = height. */
const NEEDS: Partial<Record<Layout, string>> = {
  fixed: 'wh', 'fixed-height': 'h', responsive: 'wh', intrinsic: 'wh',
};

type Attributes = { readonly layout: string | null; readonly width: string | null; readonly height: string | null };

/** A length in CSS px: `300` or `300px`; `auto` and absence give undefined. */
function parseLength(value: string | null): number | null | undefined {
  if (value === null || value === 'auto') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)(px)?\s*$/.exec(value);
  return match ? Number(match[1]) : null;
}

function inferLayout(width: number | undefined, height: number | undefined): Layout {
  if (height === undefined) return 'container';
  return width === undefined ? 'fixed-height' : 'fixed';
}

export function parseLayout(attributes: Attributes): Parsed<LayoutSpec | null> {
  const width = parseLength(attributes.width);
  const height = parseLength(attributes.height);
  if (width === null || height === null) {
    const got = width === null ? attributes.width : attributes.height;
    return { value: null, diagnostics: [diagnostic('invalid-size', 'a length in px', got)] };
  }
  const layout = (attributes.layout ?? inferLayout(width, height)) as Layout;
  if (!LAYOUTS.includes(layout)) {
    return { value: null, diagnostics: [diagnostic('invalid-layout', LAYOUTS.join('|'), attributes.layout)] };
  }
  const needs = NEEDS[layout] ?? '';
  if ((needs.includes('w') && width === undefined) || (needs.includes('h') && height === undefined)) {
    return { value: null, diagnostics: [diagnostic('missing-size', `width and height for layout=${layout}`, attributes)] };
  }
  const spec: { layout: Layout; width?: number; height?: number } = { layout };
  if (width !== undefined) spec.width = width;
  if (height !== undefined) spec.height = height;
  return { value: spec, diagnostics: [] };
}

/** Inline styles that reserve the element's box. */
export function layoutStyle(spec: LayoutSpec): Record<string, string> {
  const { width: w, height: h } = spec;
  switch (spec.layout) {
    case 'nodisplay':
      return { display: 'none' };
    case 'fixed':
      return { display: 'inline-block', position: 'relative', width: `${w}px`, height: `${h}px` };
    case 'fixed-height':
      return { display: 'block', position: 'relative', height: `${h}px` };
    case 'responsive':
      return { display: 'block', position: 'relative', width: '100%', aspectRatio: `${w} / ${h}` };
    case 'intrinsic':
      return { display: 'block', position: 'relative', width: '100%', maxWidth: `${w}px`, aspectRatio: `${w} / ${h}` };
    case 'fill':
      return { display: 'block', position: 'absolute', top: '0', left: '0', width: '100%', height: '100%' };
    case 'flex-item':
      return { display: 'block', position: 'relative', flex: '1 1 auto' };
    case 'container':
      return { display: 'block', position: 'relative' };
  }
}

export function applyLayout(element: HTMLElement, spec: LayoutSpec): void {
  Object.assign(element.style, layoutStyle(spec));
  element.classList.add(`page-layout-${spec.layout}`);
}
