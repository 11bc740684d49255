import { describe, expect, it } from 'vitest';
import {
  type ChangeSizeDecision,
  type ChangeSizeInput,
  decideChangeSize,
  RECENT_INTERACTION_MS,
} from '../../../src/runtime/change-size-decision.ts';

// Viewport: document y 1000..2000 (bottom band from 1900); document 10,000 px high (end band from 9900).
const box = (top: number, height = 100) => ({ top, bottom: top + height, left: 0, right: 300, width: 300, height });
const base: ChangeSizeInput = {
  box: box(1200),
  newHeight: 250,
  viewportTop: 1000,
  viewportHeight: 1000,
  documentHeight: 10_000,
  isDocumentHidden: false,
  msSinceInteraction: Number.POSITIVE_INFINITY,
};

const rows: [string, Partial<ChangeSizeInput>, ChangeSizeDecision][] = [
  ['refuses growth inside the viewport', {}, 'refuse'],
  ['refuses shrinking inside the viewport', { newHeight: 50 }, 'refuse'],
  ['refuses a width change inside the viewport', { newHeight: 100, newWidth: 320 }, 'refuse'],
  ['refuses a margin change inside the viewport', { newHeight: 100, margins: { top: 8 } }, 'refuse'],
  ['applies a change that changes nothing inside the viewport', { newHeight: 100, newWidth: 300 }, 'apply'],
  ['applies when the document is hidden', { isDocumentHidden: true }, 'apply'],
  ['applies right after an interaction with the element', { msSinceInteraction: RECENT_INTERACTION_MS - 1 }, 'apply'],
  ['refuses once the interaction is no longer recent', { msSinceInteraction: RECENT_INTERACTION_MS }, 'refuse'],
  ['applies below the viewport', { box: box(2500) }, 'apply'],
  ['applies at the top of the bottom 10% band', { box: box(1900) }, 'apply'],
  ['refuses just above the bottom 10% band', { box: box(1899) }, 'refuse'],
  ['refuses an element straddling the viewport bottom', { box: box(1800, 400) }, 'refuse'],
  ['applies near the document end', { viewportTop: 9000, box: box(9800) }, 'apply'],
  ['refuses just before the document end band', { viewportTop: 9000, box: box(9799) }, 'refuse'],
  ['applies above the viewport with compensation', { box: box(500, 500) }, 'apply-above'],
  ['refuses an element straddling the viewport top', { box: box(500, 501) }, 'refuse'],
  ['refuses at the document top when the page is not scrolled', { viewportTop: 0, box: box(0, 0) }, 'refuse'],
];

describe('change-size-decision', () => {
  it.each(rows)('%s', (_name, patch, expected) => {
    expect(decideChangeSize({ ...base, ...patch })).toBe(expected);
  });
});
