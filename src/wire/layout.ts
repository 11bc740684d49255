/**
 * Layouts: which box an element gets before it builds, read from its `layout`, `width` and
 * `height` attributes. Pure; shared by the runtime (src/runtime/layout.ts writes the box) and
 * the validator.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';

export type Layout =
  | 'nodisplay'
  | 'fixed'
  | 'fixed-height'
  | 'responsive'
  | 'fill'
  | 'container'
  | 'flex-item'
  | 'intrinsic';

export type LayoutSpec = { readonly layout: Layout; readonly width?: number; readonly height?: number };

const LAYOUTS = 'nodisplay fixed fixed-height responsive fill container flex-item intrinsic'.split(
  ' ',
) as readonly Layout[];

/** What each layout needs: w = width, h = height. */
const NEEDS: Partial<Record<Layout, string>> = {
  fixed: 'wh',
  'fixed-height': 'h',
  responsive: 'wh',
  intrinsic: 'wh',
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
    return {
      value: null,
      diagnostics: [diagnostic('missing-size', `width and height for layout=${layout}`, attributes)],
    };
  }
  const spec: { layout: Layout; width?: number; height?: number } = { layout };
  if (width !== undefined) spec.width = width;
  if (height !== undefined) spec.height = height;
  return { value: spec, diagnostics: [] };
}
