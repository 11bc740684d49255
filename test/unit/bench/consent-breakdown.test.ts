import { describe, expect, it } from 'vitest';
import { formatCriticalPath, formatTopTimes } from '../../../bench/consent/consent-breakdown.mjs';

describe('formatTopTimes', () => {
  it('lists the largest entries and sums the rest', () => {
    const entries: [string, number][] = [
      ['v0.js', 12.34],
      ['page-consent-0.1.js', 5],
      ['third-party.js', 0.5],
      ['(no script URL)', 0.25],
    ];
    expect(formatTopTimes(entries, 2)).toBe('v0.js 12.3, page-consent-0.1.js 5, rest 0.75');
  });

  it('leaves out entries whose median is 0', () => {
    expect(
      formatTopTimes([
        ['v0.js', 2],
        ['extensions::SafeBuiltins', 0],
      ]),
    ).toBe('v0.js 2');
  });

  it('shows a dash for nothing', () => {
    expect(formatTopTimes([])).toBe('-');
    expect(formatTopTimes([['third-party.js', 0]])).toBe('-');
  });
});

describe('formatCriticalPath', () => {
  it('lists each file with how it was requested, its times and its source', () => {
    const summary = {
      steps: [
        {
          url: 'http://127.0.0.1:1/consent/ours.html',
          via: 'other',
          startMs: 1.04,
          endMs: 5.8,
          source: 'network' as const,
        },
        {
          url: 'http://127.0.0.1:1/v0/page-consent-0.1.js',
          via: 'parser',
          startMs: 17.4,
          endMs: 27.2,
          source: 'cache' as const,
        },
        {
          url: 'http://127.0.0.1:2/third-party.js',
          via: 'script',
          startMs: 1234.5,
          endMs: null,
          source: 'prefetch' as const,
        },
      ],
      runs: 3,
      of: 3,
    };
    expect(formatCriticalPath(summary)).toBe(
      'ours.html 1.0-5.8 network > [parser] page-consent-0.1.js 17.4-27.2 cache > [script] third-party.js 1,234.5-? prefetch',
    );
  });

  it('shows a dash without a path', () => {
    expect(formatCriticalPath(null)).toBe('-');
  });
});
