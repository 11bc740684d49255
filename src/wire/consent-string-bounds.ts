/**
 * The check a TC or GPP string passes before an IAB decoder sees it (docs/consent.md, "Bounded
 * consent strings"). The decoders expand every range of ids into one entry per id, so a short
 * string of ranges over ids 1-65,535 costs seconds and hundreds of MB. This check reads only the
 * string's structure (the range lists' counts, each range's first and last id, a bit field's
 * size, a GPP header's section ids), in time linear in its length, and refuses with one
 * `consent-string-refused` diagnostic a string longer than MAX_LENGTH, one with a vendor id
 * above MAX_VENDOR_ID, or one that expands to more than MAX_IDS ids in all, under any of the
 * layouts a decoder may read it with. A GPP header must list no more ids than it has sections.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** The longest string (as the stored decision and a check answer keep it), the largest vendor id, the most ids expanded in all. */
export const MAX_LENGTH = 8192;
export const MAX_VENDOR_ID = 10_000;
export const MAX_IDS = 50_000;

/** What a walk throws at a segment's end: a decoder refuses a field cut short before expanding it. */
const END = Symbol();

type Spend = (first: number, last: number) => void;
/** Reads `count` bits as a number (skipping them too). */
type Reader = (count: number) => number;
type Ranges = (read: Reader, spend: Spend) => void;

/** Walks one base64url segment bit by bit (characters outside the alphabet: the decoders refuse the segment unread). */
function within(segment: string, walk: (read: Reader) => void): void {
  const values = [...segment].map((char) =>
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(char),
  );
  let at = 0;
  const read: Reader = (count) => {
    let value = 0;
    for (; count > 0; count--, at++) {
      if (at >= values.length * 6) throw END;
      value = value * 2 + ((values[(at / 6) | 0]! >> (5 - (at % 6))) & 1);
    }
    return value;
  };
  try {
    if (!values.includes(-1)) walk(read);
  } catch (error) {
    if (error !== END) throw error;
  }
}

/** A list of ids and ranges: a 12-bit count, then per entry a range bit and its first (and last) id, each read by `id`. */
function rangesOf(read: Reader, spend: Spend, id: () => number): void {
  for (let count = read(12); count--; ) {
    const isRange = read(1);
    const first = id();
    spend(first, isRange ? id() : first);
  }
}

/** The TCF's list: 16-bit ids. */
const fixedRanges: Ranges = (read, spend) => rangesOf(read, spend, () => read(16));

/** A Fibonacci code: bits weighing 1, 2, 3, 5... up to the first two 1s in a row, the second one ending it. */
function readFibonacci(read: Reader): number {
  let [value, weight, next, last] = [0, 1, 2, 0];
  for (let one = read(1); !(one && last); one = read(1)) {
    value += one * weight;
    [weight, next, last] = [next, weight + next, one];
  }
  return value;
}

/** GPP's list: Fibonacci-coded steps from the previous id. */
const fibonacciRanges: Ranges = (read, spend) => {
  let id = 0;
  rangesOf(read, spend, () => (id += readFibonacci(read)));
};

/**
 * `ranges` read whole before any is spent: the GPP library reads a field's extent before it
 * decodes it, so a list cut short is refused unexpanded (the TCF library expands as it reads).
 */
const whole =
  (ranges: Ranges): Ranges =>
  (read, spend) => {
    const found: [number, number][] = [];
    ranges(read, (first, last) => found.push([first, last]));
    for (const [first, last] of found) spend(first, last);
  };

/** A vendor vector: its largest id, then a bit field of that size or (after `skipped` bits) a list of ranges. */
function vendors(read: Reader, spend: Spend, ranges = fixedRanges, skipped = 0): void {
  const max = read(16);
  if (read(1)) {
    read(skipped);
    ranges(read, spend);
  } else {
    read(max);
    spend(1, max);
  }
}

/** Publisher restrictions: per purpose and type (8 bits), a list of ranges. */
function restrictions(read: Reader, spend: Spend, ranges: Ranges = fixedRanges): void {
  for (let count = read(12); count--; ) {
    read(8);
    ranges(read, spend);
  }
}

/** A TC string (a GPP `tcfeuv2` section): its core segment as version 2 (and as 1 when it says so), its vendor segments. */
function walkTcString(text: string, spend: Spend): void {
  for (const segment of text.split('.'))
    within(segment, (read) => {
      const type = read(3);
      if (type === 1 || type === 2) return vendors(read, spend);
      if (type) return;
      if (read(3) === 1)
        within(segment, (v1) => {
          v1(156);
          vendors(v1, spend, fixedRanges, 1);
        });
      read(207);
      vendors(read, spend);
      vendors(read, spend);
      restrictions(read, spend);
    });
}

/** The length of the Fibonacci code of `value` (its terminating 1 included). */
function fibonacciLength(value: number): number {
  let [length, weight, next] = [2, 1, 2];
  for (; next <= value; length++) [weight, next] = [next, weight + next];
  return length;
}

/**
 * A Fibonacci-coded vendor vector of a `tcfcav1` section, spent once read whole; whether the
 * library's encoder writes its ids back to the same bits (its largest id, the same groups of
 * consecutive ids, ranges only when shorter than the bit field).
 */
function isCanonicalVector(read: Reader, spend: Spend): boolean {
  const max = read(16);
  const isRanges = read(1) === 1;
  const groups: [number, number][] = [];
  if (isRanges) fibonacciRanges(read, (first, last) => groups.push([first, last]));
  for (let id = 1; !isRanges && id <= max; id++) {
    const group = groups.at(-1);
    if (!read(1)) continue;
    if (group?.[1] === id - 1) group[1] = id;
    else groups.push([id, id]);
  }
  let [length, previous, isSeparate] = [12, 0, true];
  for (const [first, last] of groups) {
    if (isRanges) spend(first, last);
    isSeparate &&= first > previous + 1 || !previous;
    length += 1 + fibonacciLength(first - previous) + (last > first ? fibonacciLength(last - first) : 0);
    previous = last;
  }
  if (!isRanges) spend(1, max);
  return isSeparate && max === previous && isRanges === length <= max;
}

/**
 * A GPP `tcfcav1` section. The library reads its core and disclosed-vendors segments with
 * Fibonacci-coded ranges, and only when its encoder would not write them back the same, with
 * the older 16-bit ones as well: so does this walk.
 */
function walkCanadaSection(text: string, spend: Spend): void {
  for (const segment of text.split('.')) {
    let isCanonical = false;
    within(segment, (read) => {
      const type = read(3);
      if (type !== 0) return void (isCanonical = type !== 1 || isCanonicalVector(read, spend));
      read(105);
      // The language's two letters: a blank (63) before a letter is trimmed away on decoding.
      const [first, second] = [read(6), read(6)];
      read(79);
      const isLanguageKept = first !== 63 || second === 63;
      const results = [isLanguageKept, isCanonicalVector(read, spend), isCanonicalVector(read, spend)];
      for (let count = read(12); count--; ) {
        read(8);
        results.push(isCanonicalVector(read, spend));
      }
      isCanonical = results.every(Boolean);
    });
    if (!isCanonical)
      within(segment, (read) => {
        const ranges = whole(fixedRanges);
        const type = read(3);
        if (type === 1) return vendors(read, spend, ranges);
        if (type) return;
        read(196);
        vendors(read, spend, ranges);
        vendors(read, spend, ranges);
        restrictions(read, spend, ranges);
      });
  }
}

/** A GPP string: the header's section ids (no more than its sections), then the sections with ranges. */
function walkGppString(text: string, spend: Spend): void {
  // The library reads a string that starts with C as a lone tcfeuv2 section.
  if (text.startsWith('C')) {
    walkTcString(text, spend);
    return;
  }
  const [header = '', ...sections] = text.split('~');
  const ids: number[] = [];
  within(header, (read) => {
    read(12);
    fibonacciRanges(read, (first, last) => {
      if (ids.length + last - first >= sections.length) throw `more section ids than ${sections.length} sections`;
      for (let id = first; id <= last; id++) ids.push(id);
    });
  });
  sections.forEach((section, index) => {
    (ids[index] === 2 ? walkTcString : ids[index] === 5 ? walkCanadaSection : null)?.(section, spend);
  });
}

function check(kind: string, walk: (text: string, spend: Spend) => void, text: string): Diagnostic | null {
  const expected = `${kind} of at most ${MAX_LENGTH} characters and ${MAX_IDS} ids, each up to ${MAX_VENDOR_ID}`;
  let ids = 0;
  try {
    if (text.length > MAX_LENGTH) throw `${text.length} characters`;
    walk(text, (first, last) => {
      if (last > MAX_VENDOR_ID) throw `vendor id ${last}`;
      if ((ids += Math.max(0, last - first + 1)) > MAX_IDS) throw `more than ${MAX_IDS} ids`;
    });
    return null;
  } catch (got) {
    return diagnostic('consent-string-refused', expected, got);
  }
}

/** Null when the TC string may be decoded; else the refusal (treat the string as none). */
export const checkTcString = (text: string): Diagnostic | null => check('a TC string', walkTcString, text);

/** Null when the GPP string may be decoded; else the refusal (treat the string as none). */
export const checkGppString = (text: string): Diagnostic | null => check('a GPP string', walkGppString, text);
