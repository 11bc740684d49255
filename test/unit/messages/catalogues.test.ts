import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLanguage, cmpLanguages, iabLanguageOf, matchLanguage } from '../../../src/messages/language.ts';

const dir = join(process.cwd(), 'src/messages/catalogues');
const read = (language: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(dir, `${language}.json`), 'utf8'));
const english = read('en');
const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe('message catalogues', () => {
  it('has one catalogue per language and no other file', () => {
    expect(readdirSync(dir).sort()).toEqual(cmpLanguages.map((language) => `${language}.json`));
  });

  it.each(cmpLanguages)(
    '%s has exactly the English keys, each a non-empty text with the same placeholders',
    (language) => {
      const catalogue = read(language);
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(catalogue)) {
        expect(typeof text === 'string' && text.trim() !== '', `${language}.${key}`).toBe(true);
        expect(placeholders(String(text)), `${language}.${key}`).toEqual(placeholders(String(english[key])));
      }
      expect(['ltr', 'rtl']).toContain(catalogue['dir']);
    },
  );

  it('translates the texts: a catalogue other than English repeats few English texts', () => {
    for (const language of cmpLanguages.filter((l) => l !== 'en')) {
      const catalogue = read(language);
      const same = Object.keys(english).filter((key) => key !== 'dir' && catalogue[key] === english[key]);
      expect(same.length, `${language}: ${same.join(', ')}`).toBeLessThanOrEqual(3);
    }
  });
});

describe('language choice', () => {
  it.each([
    ['de-AT,de;q=0.9,en;q=0.5', 'de'],
    ['en;q=0.2, fi;q=0.8', 'fi'],
    ['ja, el;q=0.5', 'el'],
    ['no', 'nb'],
    ['nn-NO', 'nb'],
    ['pt-BR', 'pt'],
    ['fr;q=0, de;q=0.1', 'de'],
    ['', 'en'],
    ['zz, *', 'en'],
  ])('chooses %j as %s', (header, expected) => {
    expect(chooseLanguage(header)).toBe(expected);
  });

  it('matches single tags and refuses unknown ones', () => {
    expect(matchLanguage('IS')).toBe('is');
    expect(matchLanguage('ar')).toBeNull();
    expect(matchLanguage('constructor')).toBeNull();
  });

  it('names the IAB translation files', () => {
    expect([iabLanguageOf('en'), iabLanguageOf('nb'), iabLanguageOf('pt'), iabLanguageOf('el')]).toEqual([
      null,
      'no',
      'pt-pt',
      'el',
    ]);
  });
});
