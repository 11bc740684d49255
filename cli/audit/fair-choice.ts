/**
 * The fair-choice rule on the rendered prompt (docs/validator.md, "Fair choice"): the reject
 * control is no less prominent than the accept control. The markup rule (check-consent-ui.ts)
 * can only see that a reject action exists; a reject written as a small grey link under a large
 * coloured Accept passes it. This rule measures what the reader sees, in Chromium: the size of
 * each control's box, its background, text and border colours, its opacity, its font size and
 * weight, and its place (wholly in view without scrolling when the accept control is, and in
 * the accept control's row or column rather than tucked into the text). `measureChoice` reads a
 * control; `unfairnessOf` is the pure judgement, one `expected X, got Y` line per difference.
 */
import type { Locator, Page } from 'playwright-core';
import { findChoiceControl } from './prompt.ts';

/** How a control looks: its box (CSS px, relative to the viewport) and its computed style. */
export type ChoiceLook = {
  readonly label: string;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  readonly isInView: boolean;
  readonly background: string;
  readonly color: string;
  readonly border: string;
  readonly opacity: string;
  readonly fontSize: number;
  readonly fontWeight: number;
};

/** Sub-pixel layout (a 1fr column of an odd width) is not a difference a reader sees. */
const TOLERANCE_PX = 1;

export function measureChoice(control: Locator): Promise<ChoiceLook> {
  return control.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const isInView = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    // A border that is not drawn has no colour worth comparing.
    const border =
      style.borderTopStyle === 'none' || Number.parseFloat(style.borderTopWidth) === 0
        ? 'none'
        : `${style.borderTopWidth} ${style.borderTopStyle} ${style.borderTopColor}`;
    const label = (element.textContent ?? '').trim().replace(/\s+/g, ' ');
    return {
      label,
      left: box.left,
      top: box.top,
      width: box.width,
      height: box.height,
      isInView,
      background: style.backgroundColor,
      color: style.color,
      border,
      opacity: style.opacity,
      fontSize: Number.parseFloat(style.fontSize),
      fontWeight: Number(style.fontWeight),
    };
  });
}

const near = (a: number, b: number) => Math.abs(a - b) <= TOLERANCE_PX;
const px = (value: number) => `${Math.round(value * 10) / 10}px`;

/** What makes `other` (the reject control) less prominent than `accept`; empty when none. */
export function unfairnessOf(accept: ChoiceLook, other: ChoiceLook): string[] {
  const of = `"${other.label}" as "${accept.label}"`;
  const problems: string[] = [];
  if (other.width < accept.width - TOLERANCE_PX || other.height < accept.height - TOLERANCE_PX) {
    problems.push(
      `size: expected ${of} at least ${px(accept.width)} x ${px(accept.height)}, got ${px(other.width)} x ${px(other.height)}`,
    );
  }
  for (const key of ['background', 'color', 'border', 'opacity'] as const) {
    if (other[key] !== accept[key]) problems.push(`${key}: expected ${of} ${accept[key]}, got ${other[key]}`);
  }
  if (other.fontSize < accept.fontSize - 0.5)
    problems.push(`font size: expected ${of} at least ${px(accept.fontSize)}, got ${px(other.fontSize)}`);
  if (other.fontWeight < accept.fontWeight)
    problems.push(`font weight: expected ${of} at least ${accept.fontWeight}, got ${other.fontWeight}`);
  if (accept.isInView && !other.isInView)
    problems.push(`place: expected ${of} in view without scrolling, got outside the viewport`);
  if (!near(other.top, accept.top) && !near(other.left, accept.left)) {
    problems.push(
      `place: expected ${of} in the same row or column, got at ${px(other.left)}, ${px(other.top)} against ${px(accept.left)}, ${px(accept.top)}`,
    );
  }
  return problems;
}

/** The rule on a page's shown prompt; null when its accept and reject controls are not both found. */
export async function judgeShownPrompt(page: Page, consentId: string | null): Promise<readonly string[] | null> {
  const accept = await findChoiceControl(page, consentId, 'accept');
  const reject = accept && (await findChoiceControl(page, consentId, 'reject'));
  if (!accept || !reject) return null;
  return unfairnessOf(await measureChoice(accept.control), await measureChoice(reject.control));
}
