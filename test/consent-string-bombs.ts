/**
 * TC and GPP strings built bit by bit, as the IAB decoders read them (docs/consent.md, "Bounded
 * consent strings"): the range bombs the bounds check must refuse, and small strings that show
 * the builders right. Shared by the unit tests of the check and the Chromium tests of the parts.
 */
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const int = (value: number, bits: number) => value.toString(2).padStart(bits, '0');
export const base64url = (bits: string) =>
  (bits.padEnd(Math.ceil(bits.length / 6) * 6, '0').match(/.{6}/g) ?? [])
    .map((six) => BASE64URL[Number.parseInt(six, 2)])
    .join('');
const fibonacci = (value: number) => {
  const weights = [1, 2];
  while (weights.at(-1)! <= value) weights.push(weights.at(-1)! + weights.at(-2)!);
  let code = '';
  for (const weight of weights.slice(0, -1).reverse()) {
    const isSet = value >= weight;
    if (isSet) value -= weight;
    code = (isSet ? '1' : '0') + code;
  }
  return `${code.replace(/0+$/, '')}1`;
};

/** A range list of 16-bit ids (TCF), each range `[first, last]`. */
export const fixedRanges = (ranges: [number, number][]) =>
  int(ranges.length, 12) +
  ranges
    .map(([first, last]) => (first === last ? `0${int(first, 16)}` : `1${int(first, 16)}${int(last, 16)}`))
    .join('');
export const rangeVector = (ranges: [number, number][]) =>
  int(Math.max(0, ...ranges.map(([, last]) => last)), 16) + '1' + fixedRanges(ranges);
/** The 213 bits of a version 2 core segment before its vendor consents. */
export const CORE_HEAD =
  int(2, 6) +
  int(0, 72) +
  int(10, 12) +
  int(1, 12) +
  int(0, 6) +
  int(0, 12) +
  int(1, 12) +
  int(4, 6) +
  '10' +
  int(0, 12 + 24 + 24 + 1 + 12);

/** A TC string built by hand, its vendor consents range-encoded as `ranges`, and `restrictions` for purpose 2. */
export const tcString = (ranges: [number, number][], restrictions: [number, number][] = []) =>
  base64url(
    CORE_HEAD +
      rangeVector(ranges) +
      rangeVector([]) +
      (restrictions.length ? int(1, 12) + int(2, 6) + int(1, 2) + fixedRanges(restrictions) : int(0, 12)),
  );

/** A GPP header listing the section ids `ids` (Fibonacci-coded ranges). */
export const gppHeader = (ranges: [number, number][]) => {
  let previous = 0;
  const entries = ranges.map(([first, last]) => {
    const code =
      first === last ? `0${fibonacci(first - previous)}` : `1${fibonacci(first - previous)}${fibonacci(last - first)}`;
    previous = last;
    return code;
  });
  return base64url(int(3, 6) + int(1, 6) + int(ranges.length, 12) + entries.join(''));
};

/** A TC string of 8,192 characters at most whose vendor consents are `count` ranges over ids 1-65,535. */
export const tcBomb = (count = 1480) => tcString(Array.from({ length: count }, () => [1, 65_535] as [number, number]));

/** A GPP string whose header lists `count` ranges of section ids over 1-65,535, for one section. */
export const gppHeaderBomb = (count = 300) =>
  `${gppHeader(Array.from({ length: count }, () => [1, 65_535] as [number, number]))}~BAAAAAAA`;
