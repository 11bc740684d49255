/**
 * `urlPattern` globs of ads config rules: `*` stands for any characters, everything else is
 * literal. Compiled once when a config is loaded; matching is linear in the URL's length
 * (greedy leftmost segments, each found by Knuth-Morris-Pratt), never a backtracking regex.
 */

type Segment = { readonly text: string; readonly fallback: readonly number[] };

export type UrlPattern = {
  readonly source: string;
  /** The literal text before the first `*` and after the last one. */
  readonly prefix: string;
  readonly suffix: string;
  /** Literals between stars, in order; undefined when the pattern has no `*`. */
  readonly segments: readonly Segment[] | undefined;
};

/** Counts character comparisons, for tests that check the matcher stays linear. */
export type StepCounter = { steps: number };

/** KMP failure table: for each prefix of `text`, the length of its longest proper border. */
function computeFallback(text: string): number[] {
  const fallback = [0];
  for (let index = 1, border = 0; index < text.length; index++) {
    while (border > 0 && text[index] !== text[border]) border = fallback[border - 1] ?? 0;
    if (text[index] === text[border]) border++;
    fallback.push(border);
  }
  return fallback;
}

export function compileUrlPattern(source: string): UrlPattern {
  const parts = source.split('*');
  if (parts.length === 1) return { source, prefix: source, suffix: '', segments: undefined };
  const middle = parts.slice(1, -1).filter((text) => text.length > 0);
  return {
    source,
    prefix: parts[0] ?? '',
    suffix: parts[parts.length - 1] ?? '',
    segments: middle.map((text) => ({ text, fallback: computeFallback(text) })),
  };
}

/** The index just after the first occurrence of `segment` in `subject[from, end)`, else -1. */
function findAfter(segment: Segment, subject: string, from: number, end: number, counter: StepCounter): number {
  const { text, fallback } = segment;
  for (let index = from, matched = 0; index < end; index++) {
    counter.steps++;
    while (matched > 0 && subject[index] !== text[matched]) {
      counter.steps++;
      matched = fallback[matched - 1] ?? 0;
    }
    if (subject[index] === text[matched]) matched++;
    if (matched === text.length) return index + 1;
  }
  return -1;
}

export function matchUrlPattern(pattern: UrlPattern, subject: string, counter: StepCounter = { steps: 0 }): boolean {
  const { prefix, suffix, segments } = pattern;
  if (!segments) return subject === prefix;
  const end = subject.length - suffix.length;
  if (end < prefix.length || !subject.startsWith(prefix) || !subject.endsWith(suffix)) return false;
  let position = prefix.length;
  for (const segment of segments) {
    position = findAfter(segment, subject, position, end, counter);
    if (position < 0) return false;
  }
  return true;
}
