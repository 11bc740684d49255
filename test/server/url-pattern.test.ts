import { describe, expect, it } from 'vitest';
import { compileUrlPattern, matchUrlPattern, type StepCounter } from '../../server/url-pattern.ts';

const matches = (pattern: string, subject: string) => matchUrlPattern(compileUrlPattern(pattern), subject);

/** Comparisons the matcher makes for `subject`. */
function stepsFor(pattern: string, subject: string): number {
  const counter: StepCounter = { steps: 0 };
  matchUrlPattern(compileUrlPattern(pattern), subject, counter);
  return counter.steps;
}

describe('url-pattern', () => {
  it.each([
    ['/news/a', '/news/a', true],
    ['/news/a', '/news/ab', false],
    ['/news/*', '/news/', true],
    ['/news/*', '/news/2024/story.html', true],
    ['/news/*', '/sport/news/a', false],
    ['*', '', true],
    ['*', 'anything at all', true],
    ['**', 'x', true],
    ['/*/story.html', '/a/b/story.html', true],
    ['/*/story.html', '/story.html', false],
    ['*.html', '/a.html', true],
    ['*.html', '/a.htm', false],
    ['/a*b*c', '/abc', true],
    ['/a*b*c', '/aXbYc', true],
    ['/a*b*c', '/acb', false],
    ['/a*a', '/a', false],
    ['/a*a', '/aa', true],
    ['*aab', 'aaab', true],
    ['*abab*', 'xxabaabababx', true],
    ['/a.b', '/axb', false],
    ['/(x)+?[y]', '/(x)+?[y]', true],
    ['/*/*/*/*.html', `/${'/'.repeat(2000)}x`, false],
    ['/*/*/*/*.html', '/a/b/c/d.html', true],
  ])('matches %j against %j: %s', (pattern, subject, expected) => {
    expect(matches(pattern, subject)).toBe(expected);
  });

  it('treats every character but * literally', () => {
    expect(matches('https://n.example/?q=$1^', 'https://n.example/?q=$1^')).toBe(true);
    expect(matches('https://n.example/?q=.', 'https://n.example/?q=x')).toBe(false);
  });

  it('takes steps linear in the URL length on hostile input', () => {
    const pattern = '/*/*/*/*.html';
    const small = stepsFor(pattern, `/${'/'.repeat(2_000)}x`);
    const large = stepsFor(pattern, `/${'/'.repeat(100_000)}x`);
    expect(small).toBeLessThan(3 * 2_000);
    expect(large).toBeLessThan(3 * 100_000);
  });

  it('stays linear when segments share prefixes with the URL', () => {
    const pattern = '*aaaaaaaaab*';
    expect(stepsFor(pattern, 'a'.repeat(100_000))).toBeLessThan(3 * 100_000);
  });
});
