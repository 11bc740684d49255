/**
 * Anchor resolution (docs/auto-ads.md, "Config format" (Anchor) and "Placement"): `selector` against the document, `min_c`
 * before `index`, `index` over `all`, `sub` recursively scoped to each match; and the
 * ancestors an ad may never be placed in. Computed style is injected.
 */
import type { AnchorSpec, Position } from '../wire/auto-ads-config.ts';

/**
 * Prefixes every part of a selector list with `:scope`, so that matches lie inside the root.
 * Commas inside one level of parentheses or brackets do not split.
 */
export function scopeSelector(selector: string): string {
  return selector
    .split(/,(?![^(]*\))(?![^[]*\])/)
    .map((part) => ':scope ' + part.trim())
    .join(',');
}

/** The first selector in the anchor chain that does not parse (sub levels scoped), else undefined. */
export function findInvalidSelector(anchor: AnchorSpec, probe: ParentNode): string | undefined {
  for (let level: AnchorSpec | undefined = anchor; level; level = level.sub) {
    try {
      probe.querySelector(level === anchor ? level.selector : scopeSelector(level.selector));
    } catch {
      return level.selector;
    }
  }
}

/** Elements in document order, without copying them (`all` matches are read lazily). Selectors must have passed `findInvalidSelector`. */
export function resolveAnchors(root: Document | Element, anchor: AnchorSpec): ArrayLike<Element> & Iterable<Element> {
  const selector = root.nodeType === 1 ? scopeSelector(anchor.selector) : anchor.selector;
  let elements: ArrayLike<Element> & Iterable<Element> = root.querySelectorAll(selector);
  const minimum = anchor.minimumTextLength;
  if (minimum > 0) elements = [...elements].filter((element) => (element.textContent ?? '').length >= minimum);
  if (anchor.index !== undefined || !anchor.isAll) {
    const element = elements[anchor.index ?? 0];
    elements = element ? [element] : [];
  }
  const { sub } = anchor;
  return sub ? [...elements].flatMap((element) => [...resolveAnchors(element, sub)]) : elements;
}

const DENIED_TAGS = ['PAGE-SIDEBAR', 'PAGE-APP-BANNER', 'PAGE-AD'];

/**
 * The element that forbids a placement: a deny-listed or fixed/sticky-positioned element
 * containing the ad's future parent (the anchor's parent for BEFORE/AFTER, else the anchor).
 */
export function findDeniedAncestor(
  anchor: Element,
  position: Position,
  isPinned: (element: Element) => boolean,
): Element | undefined {
  const parent = findParentOf(anchor, position);
  if (!parent) return anchor;
  for (let node: Element | null = parent; node; node = node.parentElement) {
    if (DENIED_TAGS.includes(node.tagName) || isPinned(node)) return node;
  }
}

/** The parent of the ad placed at `position` of the anchor. */
export function findParentOf(anchor: Element, position: Position): Element | null {
  return position === 'before' || position === 'after' ? anchor.parentElement : anchor;
}

/** An anchor inside (or on) an element marked `data-no-auto-ads` takes no placement. */
export function isExcluded(anchor: Element): boolean {
  return anchor.closest('[data-no-auto-ads]') !== null;
}
