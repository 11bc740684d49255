/**
 * Shared parts of the parser fuzz properties (docs/decisions/fuzzing.md): how many inputs and
 * which seed, the hostile value generators, and the checks every parser's answer must pass.
 * `npm test` runs a small fixed-seed sample; `npm run fuzz` sets FUZZ_RUNS (100,000 by default)
 * and a random seed unless FUZZ_SEED is given.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';

const SAMPLE_RUNS = 300;
const SAMPLE_SEED = 1_611_202_611;

/** Inputs per parser: FUZZ_RUNS, else the small sample of `npm test`. */
export const RUNS = Number(process.env.FUZZ_RUNS) > 0 ? Math.floor(Number(process.env.FUZZ_RUNS)) : SAMPLE_RUNS;
const IS_LONG_RUN = RUNS > SAMPLE_RUNS;
/** FUZZ_SEED replays a run; a long run without it draws a new seed, the sample always uses one. */
export const SEED =
  Number.isInteger(Number(process.env.FUZZ_SEED)) && process.env.FUZZ_SEED
    ? Number(process.env.FUZZ_SEED)
    : IS_LONG_RUN
      ? Math.floor(Math.random() * 2 ** 31)
      : SAMPLE_SEED;

/** The code column of docs/errors.md: every code a diagnostic may carry. */
export const DOCUMENTED_CODES: ReadonlySet<string> = new Set(
  [
    ...readFileSync(fileURLToPath(new globalThis.URL('../../../docs/errors.md', import.meta.url)), 'utf8').matchAll(
      /^\| `([a-z0-9-]+)` \|/gm,
    ),
  ].map((match) => match[1]!),
);

/**
 * One fuzz property of parser `name`: `check` runs on RUNS inputs of `input` with the seed
 * SEED; the number of inputs checked is printed, and asserted, so a count cannot be faked.
 */
export function fuzz<T>(name: string, input: fc.Arbitrary<T>, check: (value: T) => void): void {
  it(
    `${name}: no exception, coded diagnostics, no polluted or truthy-enabled value`,
    () => {
      const before = Object.getOwnPropertyNames(Object.prototype).join();
      let count = 0;
      fc.assert(
        fc.property(input, (value) => {
          count++;
          check(value);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: !IS_LONG_RUN },
      );
      expect(Object.getOwnPropertyNames(Object.prototype).join()).toBe(before);
      expect(count).toBe(RUNS);
      if (IS_LONG_RUN || process.env.FUZZ_SEED)
        console.log(`fuzz ${name}: ${count} inputs, seed ${SEED} (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`);
    },
    IS_LONG_RUN ? 3_600_000 : 20_000,
  );
}

// ---------------------------------------------------------------------------------------------
// Generators.

/** Names that reach `Object.prototype` when read carelessly. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'isPrototypeOf',
];

const ODD_PIECES = [
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDFFF',
  '\u0000',
  '\uFFFE',
  '\uFEFF',
  '\u202E',
  '\u0301',
  '𝟘',
  '🏳️‍🌈',
  '\n',
  '\t',
  '"',
  "'",
  '\\',
  '%',
  '%E0%A4%A',
  '../',
];

/** Strings with lone surrogates, NUL, combining and bidi marks, astral characters. */
export const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.oneof(fc.constantFrom(...ODD_PIECES), fc.string({ maxLength: 3 })), { maxLength: 8 })
    .map((pieces) => pieces.join('')),
);

/** Long strings (up to 24,000 characters), cheap to build. */
export const longString = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('a', ' ', '\uD800', '1', 'vh', 'px', 'x.', '('),
      fc.string({ minLength: 1, maxLength: 4 }),
    ),
    fc.integer({ min: 100, max: 6_000 }),
  )
  .map(([piece, times]) => piece.repeat(times));

/** Numbers at every edge: negative zero, NaN, infinities, huge, fractional. */
export const edgeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    2,
    -1,
    0.5,
    1.5,
    10,
    80,
    99,
    100,
    1e6,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    Number.NaN,
    Infinity,
    -Infinity,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.double(),
  fc.integer(),
);

/** Every scalar of the wrong (or right) type. */
export const scalar = fc.oneof(
  fc.boolean(),
  fc.constant(null),
  edgeNumber,
  oddString,
  fc.constantFrom('true', 'false', '1', '', 'null', 'accepted', 'rejected', 'remote'),
);

/**
 * JSON-shaped junk: objects keyed by `names` (the parser's own field names), prototype keys and
 * odd strings, with values of any type, nested a few levels.
 */
export function shaped(names: readonly string[], leaves: fc.Arbitrary<unknown> = scalar): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: oddString },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: leaves },
      { weight: 1, arbitrary: longString },
      { weight: 3, arbitrary: fc.dictionary(key, tie('value'), { maxKeys: 8 }) },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 5 }) },
    ),
  }));
  return value;
}

/** A record with the parser's fields, each of a junk value (right-typed ones among them). */
export function record(
  fields: Readonly<Record<string, fc.Arbitrary<unknown>>>,
  names: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const junk = shaped(names);
  const entries = Object.entries(fields).map(([name, right]) =>
    fc.option(fc.tuple(fc.constant(name), fc.oneof(right, junk)), { nil: undefined }),
  );
  const extra = fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, ...names), junk), { maxLength: 3 });
  return fc.tuple(fc.tuple(...entries), extra).map(([own, more]) => {
    const result: Record<string, unknown> = {};
    // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it.
    for (const entry of [...own, ...more])
      if (entry)
        Object.defineProperty(result, entry[0], {
          value: entry[1],
          enumerable: true,
          writable: true,
          configurable: true,
        });
    return result;
  });
}

/** `value` wrapped `depth` times in objects or arrays (deeply nested documents). */
export const deep = (inner: fc.Arbitrary<unknown>, names: readonly string[]) =>
  fc
    .tuple(inner, fc.integer({ min: 20, max: 600 }), fc.constantFrom(...names, '__proto__', 'a'))
    .map(([value, depth, key]) => {
      let nested = value;
      for (let level = 0; level < depth; level++) nested = level % 3 === 2 ? [nested] : { [key]: nested };
      return nested;
    });

/** Any value JSON.parse (or a careless caller) can hand over. */
export const jsonishValue = fc.oneof(fc.anything(), fc.jsonValue());

/** Any value, including the ones structured clone can carry in a message (BigInt, Map, Date...). */
export const anyValue = fc.oneof(
  fc.anything(),
  fc.anything({
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    withUnicodeString: true,
  }),
  fc.jsonValue(),
);

/** JSON text of `value`, sometimes broken, sometimes not JSON at all. */
export const jsonText = (value: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 5, arbitrary: value.map((json) => JSON.stringify(json) ?? 'undefined') },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.nat()).map(([json, cut]) => {
        const text = JSON.stringify(json) ?? '';
        return text.slice(0, cut % (text.length + 1));
      }),
    },
    { weight: 1, arbitrary: oddString },
    { weight: 1, arbitrary: longString },
  );

// ---------------------------------------------------------------------------------------------
// Checks.

/** A plain assertion for the per-input checks: cheaper than `expect` at 100,000 inputs. */
export function ensure(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const DIAGNOSTIC_KEYS = ['code', 'expected', 'got', 'field'];

/** Each diagnostic: a documented code, the builder's shape, a printable `expected X, got Y`. */
export function expectCodedDiagnostics(diagnostics: readonly Diagnostic[]): void {
  ensure(Array.isArray(diagnostics), 'diagnostics is not an array');
  for (const d of diagnostics) {
    const text = JSON.stringify(d).slice(0, 300);
    ensure(Object.getPrototypeOf(d) === Object.prototype, `diagnostic is not a plain object: ${text}`);
    ensure(
      Object.keys(d).every((key) => DIAGNOSTIC_KEYS.includes(key)),
      `diagnostic has other keys than ${DIAGNOSTIC_KEYS}: ${text}`,
    );
    ensure(DOCUMENTED_CODES.has(d.code), `diagnostic code ${JSON.stringify(d.code)} is not in docs/errors.md: ${text}`);
    ensure(typeof d.expected === 'string' && d.expected.length > 0, `diagnostic without an expected value: ${text}`);
    // describe() shortens what it quotes: long or hostile input never floods the console.
    ensure(
      typeof d.got === 'string' && d.got.length <= 64,
      `diagnostic got is not a string of at most 64 characters: ${text}`,
    );
    ensure(!('field' in d) || typeof d.field === 'string', `diagnostic field is not a string: ${text}`);
    ensure(
      /^[a-z][a-z0-9-]*: expected [\s\S]+, got [\s\S]*$/.test(`${d.code}: expected ${d.expected}, got ${d.got}`),
      `diagnostic does not print as "code: expected X, got Y": ${text}`,
    );
  }
}

/** A null prototype is allowed too: such an object cannot reach `Object.prototype`. */
const STANDARD_PROTOTYPES: readonly unknown[] = [Object.prototype, Array.prototype, Map.prototype, null];

/**
 * A parsed value holds plain data only: every object is a plain object, array or Map whose
 * prototype is the standard one (no `__proto__` rewiring), and no function, symbol or inherited
 * object (`Object.prototype` itself) hides anywhere in it.
 */
export function expectPlainValue(value: unknown, path = 'value', seen = new Set<unknown>()): void {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return;
  ensure(typeof value === 'object', `${path} is a ${typeof value}`);
  ensure(![Object.prototype, Array.prototype, Map.prototype].includes(value), `${path} is a built-in prototype`);
  ensure(STANDARD_PROTOTYPES.includes(Object.getPrototypeOf(value)), `${path} has a rewired prototype`);
  if (seen.has(value)) return;
  seen.add(value);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  for (const [key, item] of entries) expectPlainValue(item, `${path}.${String(key)}`, seen);
}

/** Own keys under which `input` holds the literal `true`, anywhere in it. */
export function keysWithLiteralTrue(input: unknown, found = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (typeof input !== 'object' || input === null || seen.has(input)) return found;
  seen.add(input);
  for (const [key, item] of Object.entries(input)) {
    if (item === true) found.add(key);
    keysWithLiteralTrue(item, found, seen);
  }
  return found;
}

/**
 * No `true` in `value` without a literal `true` in the input under the same key (or one of its
 * `aliases`, for renamed fields): nothing is enabled by a truthy string, number or object.
 */
export function expectTrueOnlyFromLiteralTrue(
  value: unknown,
  input: unknown,
  aliases: Readonly<Record<string, readonly string[]>> = {},
): void {
  const literal = keysWithLiteralTrue(input);
  const visit = (item: unknown, path: string, seen: Set<unknown>): void => {
    if (typeof item !== 'object' || item === null || seen.has(item)) return;
    seen.add(item);
    for (const [key, child] of Object.entries(item)) {
      const sources = Object.hasOwn(aliases, key) ? aliases[key]! : [key];
      ensure(
        child !== true || sources.some((source) => literal.has(source)),
        `${path}.${key} is true without a literal true in the input`,
      );
      visit(child, `${path}.${key}`, seen);
    }
  };
  visit(value, 'value', new Set());
}

/** Purpose consents: own booleans only, `true` exactly where the input's own entry is `true`. */
export function expectPurposesFrom(purposes: unknown, input: unknown): void {
  if (purposes === undefined) return;
  ensure(Object.getPrototypeOf(purposes) === Object.prototype, 'purposes: not a plain object');
  const source = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  for (const [name, given] of Object.entries(purposes as Record<string, unknown>)) {
    ensure(typeof given === 'boolean', `purpose ${name}: not a boolean`);
    ensure(
      Object.hasOwn(source, name) && source[name] === given,
      `purpose ${name}: ${given} is not the input's own literal value`,
    );
  }
  // Inherited names never read as granted.
  for (const name of PROTOTYPE_KEYS) {
    ensure(
      Object.hasOwn(purposes as object, name) || (purposes as Record<string, unknown>)[name] !== true,
      `purpose ${name}: inherited true`,
    );
  }
}
