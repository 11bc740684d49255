/**
 * IAB translation files for the hosted prompt's tests: German from the repository's fixture
 * (fixtures/tcf/translations/purposes-de.json, written for the fixture GVL), and for any other
 * language one generated from the fixture GVL that covers every entry with texts in that language
 * (the catalogue's section heading and the entry's id), so the prompt speaks it
 * (docs/decisions/hosted-prompt-one-language.md).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogues } from '../../src/messages/catalogues.ts';
import { type CmpLanguage, iabLanguageOf } from '../../src/messages/language.ts';
import { TRANSLATION_SECTIONS } from '../../src/wire/gvl-translation.ts';

const gvl = JSON.parse(readFileSync(resolve('fixtures/tcf/vendor-list.json'), 'utf8'));
/** The catalogue key whose text names each section. */
const headings: Record<(typeof TRANSLATION_SECTIONS)[number], string> = {
  purposes: 'purposes',
  specialPurposes: 'specialPurposes',
  features: 'features',
  specialFeatures: 'specialFeatures',
  stacks: 'purposes',
  dataCategories: 'dataCategories',
};

/** A translation of every entry of the fixture GVL into `language`. */
export function generatedTranslation(language: CmpLanguage): object {
  const messages = catalogues[language];
  return Object.fromEntries(
    TRANSLATION_SECTIONS.map((section) => [
      section,
      Object.fromEntries(
        Object.keys(gvl[section]).map((id) => {
          const name = `${messages[headings[section]]} ${id}`;
          return [id, { id: Number(id), name, description: `${name}: ${messages['details']}` }];
        }),
      ),
    ]),
  );
}

/** Writes into `dir` the files of `languages` (German from the fixture), and returns `dir`. */
export function writeTranslations(dir: string, languages: readonly CmpLanguage[]): string {
  mkdirSync(dir, { recursive: true });
  for (const language of languages) {
    const file = join(dir, `purposes-${iabLanguageOf(language)}.json`);
    if (language === 'de') copyFileSync(resolve('fixtures/tcf/translations/purposes-de.json'), file);
    else writeFileSync(file, JSON.stringify(generatedTranslation(language)));
  }
  return dir;
}
