import { describe, expect, it } from 'vitest';
import { csvCell, csvHeader, exportContentDisposition } from '../../server/records-format.ts';

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

  it.each([
    ['site', 'csv', 'attachment; filename="site-records.csv"'],
    [
      'news site/eu',
      'json',
      `attachment; filename="news_site_eu-records.json"; filename*=UTF-8''news%20site%2Feu-records.json`,
    ],
    [
      'a\'(b)*\r\n"',
      'csv',
      `attachment; filename="a__b_____-records.csv"; filename*=UTF-8''a%27%28b%29%2A%0D%0A%22-records.csv`,
    ],
    [
      'ニュース',
      'ndjson',
      `attachment; filename="____-records.ndjson"; filename*=UTF-8''%E3%83%8B%E3%83%A5%E3%83%BC%E3%82%B9-records.ndjson`,
    ],
  ])('names the export of instance %j (%s) in a header any id is safe in', (id, format, header) => {
    expect(exportContentDisposition(id, format)).toBe(header);
  });
  it('quotes the header cells too', () => {
    expect(csvHeader().startsWith('"id","time","instanceId",')).toBe(true);
  });
});
