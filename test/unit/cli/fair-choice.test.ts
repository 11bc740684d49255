import { describe, expect, it } from 'vitest';
import { type ChoiceLook, unfairnessOf } from '../../../cli/audit/fair-choice.ts';

const accept: ChoiceLook = {
  label: 'Accept all',
  left: 16,
  top: 600,
  width: 358,
  height: 44,
  isInView: true,
  background: 'rgb(31, 79, 209)',
  color: 'rgb(255, 255, 255)',
  border: '2px solid rgb(31, 79, 209)',
  opacity: '1',
  fontSize: 16,
  fontWeight: 600,
};
const reject: ChoiceLook = { ...accept, label: 'Reject all', top: 500 };

describe('unfairnessOf', () => {
  it('finds nothing when reject looks as accept does, in its column or its row', () => {
    expect(unfairnessOf(accept, reject)).toEqual([]);
    expect(unfairnessOf(accept, { ...reject, top: 600, left: 200, width: 358.6 })).toEqual([]);
  });

  it('names each way reject is less prominent, as expected X, got Y', () => {
    const link = {
      ...reject,
      width: 80,
      height: 20,
      background: 'rgba(0, 0, 0, 0)',
      color: 'rgb(128, 128, 128)',
      border: 'none',
      opacity: '0.8',
      fontSize: 12,
      fontWeight: 400,
      isInView: false,
      left: 40,
    };
    expect(unfairnessOf(accept, link)).toEqual([
      'size: expected "Reject all" as "Accept all" at least 358px x 44px, got 80px x 20px',
      'background: expected "Reject all" as "Accept all" rgb(31, 79, 209), got rgba(0, 0, 0, 0)',
      'color: expected "Reject all" as "Accept all" rgb(255, 255, 255), got rgb(128, 128, 128)',
      'border: expected "Reject all" as "Accept all" 2px solid rgb(31, 79, 209), got none',
      'opacity: expected "Reject all" as "Accept all" 1, got 0.8',
      'font size: expected "Reject all" as "Accept all" at least 16px, got 12px',
      'font weight: expected "Reject all" as "Accept all" at least 600, got 400',
      'place: expected "Reject all" as "Accept all" in view without scrolling, got outside the viewport',
      'place: expected "Reject all" as "Accept all" in the same row or column, got at 40px, 500px against 16px, 600px',
    ]);
  });

  it('allows a reject more prominent than accept, and a pixel of rounding', () => {
    expect(unfairnessOf(accept, { ...reject, width: 400, height: 43.2, fontSize: 18, fontWeight: 700 })).toEqual([]);
  });
});
