import { describe, expect, it } from 'vitest';
import { parseTranslation } from '../../../src/wire/gvl-translation.ts';
import { formatDiagnostic } from '../../../src/wire/diagnostic.ts';

describe('gvl-translation', () => {
  it('reads the sections of a translation file', () => {
    const json = { purposes: { 1: { id: 1, name: 'Informationen speichern', description: 'Cookies' } }, stacks: {} };
    expect(parseTranslation(json)).toEqual({
      value: { purposes: { 1: { id: 1, name: 'Informationen speichern', description: 'Cookies' } }, stacks: {} },
      diagnostics: [],
    });
  });

  it('leaves out an entry field of the wrong type with consent-prompt-translation-invalid', () => {
    const { value, diagnostics } = parseTranslation({ purposes: { 1: { id: 1, name: 7 } } });
    expect(value).toEqual({ purposes: { 1: { id: 1 } } });
    expect(diagnostics.map((d) => formatDiagnostic('page-consent-prompt', d))).toEqual([
      '[page-consent-prompt] consent-prompt-translation-invalid: expected translation.purposes.1.name: a string of 1-10000 characters, got 7',
    ]);
  });

  it('reads a file that is not a JSON object as none', () => {
    expect(parseTranslation([1]).value).toBeNull();
  });
});
