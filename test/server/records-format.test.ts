import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader } from '../../server/records-format.ts';

describe('records-format', () => {
  it.each([
    ['plain', '"plain"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ["; =cmd|' /C calc'!A0", `"; =cmd|' /C calc'!A0"`],
    ["=cmd|' /C calc'!A0", `"'=cmd|' /C calc'!A0"`],
    ['+1', `"'+1"`],
    ['-1', `"'-1"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['line\nbreak', '"line\nbreak"'],
    [null, '""'],
    [7, '"7"'],
    [{ ads: true }, '"{""ads"":true}"'],
  ])('quotes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('quotes the header cells too', () => {
    expect(csvHeader().startsWith('"id","time","instanceId",')).toBe(true);
  });
});
