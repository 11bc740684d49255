import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../cli/finding.ts';
import { formatJson, formatText } from '../../../cli/format-findings.ts';
import { readHints, withHints } from '../../../cli/hints.ts';

const error: Finding = {
  severity: 'error',
  code: 'url-refused',
  message: 'expected an http(s) or relative URL, got "data:x"',
  line: 3,
  column: 7,
};
const warning: Finding = {
  severity: 'warning',
  code: 'validate-reject-missing',
  message: 'expected a reject action, got accept only',
  line: 9,
  column: 1,
};

describe('formatFindings', () => {
  it('writes one line per finding plus a summary', () => {
    expect(formatText([{ name: 'page.html', findings: [error, warning] }])).toBe(
      [
        'page.html:3:7 error url-refused: expected an http(s) or relative URL, got "data:x"',
        'page.html:9:1 warning validate-reject-missing: expected a reject action, got accept only',
        'page.html: 1 error, 1 warning',
      ].join('\n'),
    );
  });

  it('colours the severities for a terminal', () => {
    const [errorLine, warningLine] = formatText([{ name: 'page.html', findings: [error, warning] }], true).split('\n');
    expect(errorLine).toContain('\u001b[31merror\u001b[0m url-refused');
    expect(warningLine).toContain('\u001b[33mwarning\u001b[0m validate-reject-missing');
  });

  it('writes JSON as an array of findings, naming the file only when there are several', () => {
    expect(JSON.parse(formatJson([{ name: 'page.html', findings: [error] }]))).toEqual([error]);
    const both = JSON.parse(
      formatJson([
        { name: 'page.html', findings: [error] },
        { name: 'ads.json', findings: [warning] },
      ]),
    );
    expect(both).toEqual([
      { ...error, file: 'page.html' },
      { ...warning, file: 'ads.json' },
    ]);
  });
});

describe('readHints', () => {
  it('takes the How to fix column of docs/errors.md for every documented code', () => {
    const hints = readHints();
    expect(hints.get('validate-ui-not-hidden')).toBe('Write the UI with `hidden`; the component shows it.');
    expect(hints.get('url-refused')).toBeTruthy();
    expect(hints.size).toBeGreaterThan(100);
  });

  it('prints a hint under its finding', () => {
    const [finding] = withHints([warning], new Map([['validate-reject-missing', 'Add a reject button.']]));
    expect(
      formatText([{ name: 'p.html', findings: [finding!] }])
        .split('\n')
        .slice(0, 2),
    ).toEqual([
      'p.html:9:1 warning validate-reject-missing: expected a reject action, got accept only',
      '  hint: Add a reject button.',
    ]);
  });

  it('gives no hints without the docs', () => {
    expect(readHints('/nonexistent/errors.md').size).toBe(0);
  });
});
