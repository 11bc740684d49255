import { describe, expect, it } from 'vitest';
import { parseServerError } from '../../../src/wire/server-error.ts';

describe('parseServerError', () => {
  it('reads the code and the message of the error envelope', () => {
    const message = 'tcf.vendors[1]: expected a vendor id of the vendor list (version 142), got 9999';
    expect(parseServerError({ error: { code: 'invalid-field', message } })).toEqual({
      value: { code: 'invalid-field', message },
      diagnostics: [],
    });
  });

  it.each([
    ['no body', undefined, 'answer'],
    ['no error', {}, 'answer.error'],
    ['an error without a message', { error: { code: 'invalid-field' } }, 'answer.error'],
    ['a message that is not text', { error: { code: 'x', message: 5 } }, 'answer.error.message'],
  ])('refuses %s with one diagnostic', (_, json, field) => {
    const { value, diagnostics } = parseServerError(json);
    expect(value).toBeNull();
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([['admin-answer-invalid', field]]);
  });
});
