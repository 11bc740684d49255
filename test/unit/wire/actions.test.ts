import { describe, expect, it } from 'vitest';
import { type ActionCall, parseActions } from '../../../src/wire/actions.ts';

const calls = (text: string) => Object.fromEntries(parseActions(text).value);
const codes = (text: string) => parseActions(text).diagnostics.map((d) => d.code);
const call = (target: string, action: string, args: ActionCall['args'] = {}): ActionCall => ({ target, action, args });

describe('actions (the on attribute)', () => {
  it('parses one event with one call without arguments', () => {
    expect(calls('tap:consent.accept')).toEqual({ tap: [call('consent', 'accept')] });
  });

  it('parses several calls for one event', () => {
    expect(calls('tap:consent.accept, dialog.close')).toEqual({
      tap: [call('consent', 'accept'), call('dialog', 'close')],
    });
  });

  it('parses several events separated by semicolons', () => {
    expect(calls('tap:a.open; consent-change:b.hide')).toEqual({
      tap: [call('a', 'open')],
      'consent-change': [call('b', 'hide')],
    });
  });

  it('appends calls of an event named twice', () => {
    expect(calls('tap:a.one; tap:b.two')).toEqual({ tap: [call('a', 'one'), call('b', 'two')] });
  });

  it('parses named arguments and keeps commas between arguments apart from commas between calls', () => {
    expect(calls('tap:consent.setPurpose(analytics=true, ads=false), dialog.close')).toEqual({
      tap: [call('consent', 'setPurpose', { analytics: true, ads: false }), call('dialog', 'close')],
    });
  });

  it('accepts argument names with hyphens and non-ASCII letters', () => {
    expect(calls('tap:consent.setPurpose(purpose-ads=true, wérbung=false)')).toEqual({
      tap: [call('consent', 'setPurpose', { 'purpose-ads': true, wérbung: false })],
    });
  });

  it('accepts empty parentheses', () => {
    expect(calls('tap:a.b()')).toEqual({ tap: [call('a', 'b')] });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['42', 42],
    ['-3', -3],
    ['2.5', 2.5],
    ['-0.25', -0.25],
    ['.5', 0.5],
    ["'hello'", 'hello'],
    ['"hello world"', 'hello world'],
    ["'true'", 'true'],
    ['"42"', '42'],
    ["'a, b; c: (d)'", 'a, b; c: (d)'],
    ["''", ''],
    ['plain', 'plain'],
    ['some-word', 'some-word'],
    ['12px', '12px'],
  ])('types the argument value %s', (text, expected) => {
    expect(calls(`tap:a.b(x=${text})`).tap?.[0]?.args).toEqual({ x: expected });
  });

  it('keeps event references as markers', () => {
    expect(calls('change:consent.setPurpose(analytics=event.checked, v=event.detail.value)').change?.[0]?.args).toEqual(
      {
        analytics: { path: ['checked'] },
        v: { path: ['detail', 'value'] },
      },
    );
  });

  it('tolerates whitespace and line breaks', () => {
    expect(calls('  tap :\n  consent.accept ( a = 1 ,  b = "x" ) ,\n  dialog.close ;\n change : c.d ; ')).toEqual({
      tap: [call('consent', 'accept', { a: 1, b: 'x' }), call('dialog', 'close')],
      change: [call('c', 'd')],
    });
  });

  it('parses an empty attribute to nothing', () => {
    expect(parseActions('  ')).toEqual({ value: new Map(), diagnostics: [] });
  });

  it('reports a call without an action and keeps the valid calls', () => {
    const result = parseActions('tap:foo, a.b; change:c.d');
    expect(result.diagnostics).toEqual([
      { code: 'invalid-action', expected: '"event:target.action(name=value)"', got: '"tap:foo"' },
    ]);
    expect(Object.fromEntries(result.value)).toEqual({ tap: [call('a', 'b')], change: [call('c', 'd')] });
  });

  it.each([
    ['a clause without an event', 'consent.accept'],
    ['an event without calls', 'tap:'],
    ['an invalid event name', 'on tap:a.b'],
    ['an argument without a value name', 'tap:a.b(1)'],
    ['an argument without "="', 'tap:a.b(x)'],
    ['text after the arguments', 'tap:a.b(x=1) c'],
    ['an unclosed parenthesis', 'tap:a.b(x=1'],
    ['an extra closing parenthesis', 'tap:a.b(x=1))'],
    ['an unclosed quote', "tap:a.b(x='1)"],
    ['a target with a dot and no action', 'tap:a.'],
  ])('reports %s', (_name, text) => {
    expect(codes(text)).toEqual(['invalid-action']);
    expect(parseActions(text).value.size).toBe(0);
  });

  it('keeps the other clauses when one clause is malformed', () => {
    expect(calls('tap:a.b(x); change:c.d')).toEqual({ change: [call('c', 'd')] });
    expect(codes('tap:a.b(x); change:c.d')).toEqual(['invalid-action']);
  });
});
