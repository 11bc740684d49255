/**
 * Pure rules of the change-size arbiter (docs/runtime.md): a size change is applied only where it
 * moves no visible content.
 */
import type { Margins, PageBox } from './types.ts';

export type ChangeSizeInput = {
  /** Current page box of the element (document coordinates). */
  readonly box: PageBox;
  readonly newHeight: number;
  readonly newWidth?: number | undefined;
  readonly margins?: Margins | undefined;
  /** Scroll top: the viewport's top edge in document coordinates. */
  readonly viewportTop: number;
  readonly viewportHeight: number;
  readonly documentHeight: number;
  readonly isDocumentHidden: boolean;
  /** Infinity when the user never interacted with the element. */
  readonly msSinceInteraction: number;
};

/** apply-above: the element is above the viewport; apply with scroll compensation once scrolling stopped. */
export type ChangeSizeDecision = 'apply' | 'apply-above' | 'refuse';

/**
 * A change this soon after the user's input on the element is the user's own doing. 500 ms is
 * the window in which Chromium's layout-shift entries count as `hadRecentInput` (excluded from CLS).
 */
export const RECENT_INTERACTION_MS = 500;

/** Share of the viewport height: its bottom band, and the distance counted as "near the document end". */
export const EDGE_RATIO = 0.1;

export function decideChangeSize(input: ChangeSizeInput): ChangeSizeDecision {
  const { box, viewportTop, viewportHeight } = input;
  const edge = viewportHeight * EDGE_RATIO;
  if (input.isDocumentHidden || input.msSinceInteraction < RECENT_INTERACTION_MS) return 'apply';
  // Below the viewport or in its bottom band: only content below the element moves.
  if (box.top >= viewportTop + viewportHeight - edge) return 'apply';
  // Near the document end: at most `edge` px of content below the element moves.
  if (box.bottom >= input.documentHeight - edge) return 'apply';
  // Entirely above a scrolled viewport: a scroll by the delta keeps visible content in place.
  if (box.bottom <= viewportTop && viewportTop > 0) return 'apply-above';
  // Intersecting the visible viewport: growing pushes content below it down and shrinking
  // pulls it up, a width or margin change may reflow siblings; so only a no-op is applied.
  const isUnchanged = input.newHeight === box.height && (input.newWidth ?? box.width) === box.width && !input.margins;
  return isUnchanged ? 'apply' : 'refuse';
}
