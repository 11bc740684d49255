import { describe, expect, it } from 'vitest';
import { addShift, NO_SHIFT, type ShiftEntry } from '../../../src/auto-ads/layout-shift.ts';

const shift = (startTime: number, value: number, hadRecentInput = false): ShiftEntry => ({
  startTime,
  value,
  hadRecentInput,
});
const cls = (...entries: ShiftEntry[]) => entries.reduce(addShift, NO_SHIFT).largest;

describe('layout-shift', () => {
  it('is 0 without shifts', () => {
    expect(cls()).toBe(0);
  });

  it('adds shifts less than 1 s apart into one window', () => {
    expect(cls(shift(100, 0.1), shift(900, 0.05), shift(1800, 0.05))).toBeCloseTo(0.2);
  });

  it('starts a new window after a 1 s gap and keeps the largest', () => {
    expect(cls(shift(100, 0.1), shift(1200, 0.05), shift(1300, 0.02))).toBeCloseTo(0.1);
    expect(cls(shift(100, 0.01), shift(1200, 0.05), shift(1300, 0.02))).toBeCloseTo(0.07);
  });

  it('closes a window 5 s after it began', () => {
    const steady = Array.from({ length: 12 }, (_, i) => shift(i * 800, 0.01));
    // Windows: 0-4800 (7 shifts), 5600-8800 (5 shifts).
    expect(cls(...steady)).toBeCloseTo(0.07);
  });

  it('leaves out shifts after recent input', () => {
    expect(cls(shift(100, 0.3, true), shift(200, 0.01))).toBeCloseTo(0.01);
  });
});
