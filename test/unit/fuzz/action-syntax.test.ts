// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseActions } from '../../../src/wire/actions.ts';
import { expectCodedDiagnostics, expectPlainValue, fuzz, longString, oddString, PROTOTYPE_KEYS } from './harness.ts';

const TOKENS = [
  'tap',
  'change',
  ':',
  ':',
  'consent',
  'a-b',
  '.',
  '.',
  'accept',
  'set',
  '(',
  ')',
  '=',
  '=',
  ',',
  ';',
  '"',
  "'",
  ' ',
  'event.',
  'event.checked',
  'true',
  'false',
  '1',
  '-2.5',
  '.5',
  '\u0000',
  '\uD800',
  '\n',
  'é',
  ...PROTOTYPE_KEYS,
];
const tokens = fc
  .array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...TOKENS) }, { weight: 1, arbitrary: oddString }), {
    maxLength: 30,
  })
  .map((parts) => parts.join(''));
const wellFormed = fc
  .tuple(
    fc.constantFrom('tap', 'change'),
    fc.constantFrom('a', 'consent'),
    fc.constantFrom('accept', 'set'),
    fc.array(
      fc.tuple(
        fc.constantFrom('x', 'ok', ...PROTOTYPE_KEYS),
        fc.constantFrom('true', '1', '"a,b"', 'event.checked', 'event.a.b', "'q'"),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([event, target, action, args]) => ({
    text: `${event}:${target}.${action}(${args.map(([name, value]) => `${name}=${value}`).join(', ')})`,
    names: args.map(([name]) => name),
  }));
const junk = fc
  .oneof({ weight: 4, arbitrary: tokens }, oddString, longString)
  .map((text) => ({ text, names: [] as string[] }));
const input = fc.oneof({ weight: 4, arbitrary: junk }, { weight: 3, arbitrary: wellFormed });

describe('fuzz: action syntax (parseActions)', () => {
  fuzz('action syntax', input, ({ text, names }) => {
    const { value, diagnostics } = parseActions(text);
    expectCodedDiagnostics(diagnostics);
    expect(value).toBeInstanceOf(Map);
    expectPlainValue(value);
    for (const [event, calls] of value) {
      expect(event).toMatch(/^[\w-]+$/);
      for (const { target, action, args } of calls) {
        expect(target).toMatch(/^[\w-]+$/);
        expect(action).toMatch(/^\w+$/);
        expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
        // Every argument of a well-formed call is an own key, `__proto__` and `constructor` included.
        for (const name of names) expect(Object.hasOwn(args, name)).toBe(true);
        for (const argument of Object.values(args)) {
          if (typeof argument === 'object')
            expect(argument.path.every((part) => typeof part === 'string' && part.length > 0)).toBe(true);
          else expect(['string', 'number', 'boolean']).toContain(typeof argument);
        }
      }
    }
  });
});
