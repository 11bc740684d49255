import { describe, expect, it } from 'vitest';
import { applicableSectionsOf } from '../../../src/consent-gpp/gpp-sections.ts';

describe('gpp-sections', () => {
  it.each([
    [undefined, [-1]],
    ['', [-1]],
    ['7', [7]],
    ['7,8', [7, 8]],
    ['2_7', [2, 7]],
    ['x', [-1]],
  ] as const)('reads %j as %j', (id, expected) => {
    expect(applicableSectionsOf(id)).toEqual(expected);
  });
});
