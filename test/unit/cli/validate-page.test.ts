import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';
import { breakPage, VALID_PAGE } from './pages.ts';

describe('validatePage', () => {
  it('finds nothing on a valid complete page', () => {
    expect(validatePage(VALID_PAGE)).toEqual([]);
  });

  it('gives source positions from the parser, sorted', () => {
    const findings = validatePage(breakPage('<page-img src="/photo.jpg"', '<page-img src="data:image/png,x"'));
    const line = VALID_PAGE.split('\n').findIndex((text) => text.includes('<page-img')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(findings).toEqual([
      {
        severity: 'error',
        code: 'url-refused',
        message: 'expected an http(s) or relative URL, got "data:image/png,x"',
        line,
        column: 13,
      },
    ]);
  });
});
