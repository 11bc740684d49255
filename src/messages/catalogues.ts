/**
 * The message catalogues (catalogues/<language>.json) as Node reads them, once at start: the
 * server fills in the hosted prompt from them, and the page audit knows the prompt's buttons by
 * their texts in every language. A catalogue that is missing or not an object of strings throws
 * at start, where the unit test of the catalogues would already have failed. Not for pages: the
 * story prompt bundles only its two texts (story-texts.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CmpLanguage, cmpLanguages, type Messages } from './language.ts';

// A path, not a URL object: under a DOM test environment `URL` is not Node's.
const dir = join(dirname(fileURLToPath(import.meta.url)), 'catalogues');

function readCatalogue(language: CmpLanguage): Messages {
  const json: unknown = JSON.parse(readFileSync(join(dir, `${language}.json`), 'utf8'));
  const entries = typeof json === 'object' && json !== null ? Object.entries(json) : [];
  if (!entries.length || entries.some(([, text]) => typeof text !== 'string'))
    throw new Error(`catalogues/${language}.json: expected an object of texts`);
  return Object.fromEntries(entries) as Messages;
}

export const catalogues: Readonly<Record<CmpLanguage, Messages>> = Object.fromEntries(
  cmpLanguages.map((language) => [language, readCatalogue(language)]),
) as Record<CmpLanguage, Messages>;

/** Every catalogue's text for each of `keys`, once each (the texts a control of that meaning may carry). */
export function textsOf(...keys: readonly string[]): readonly string[] {
  return [...new Set(Object.values(catalogues).flatMap((messages) => keys.flatMap((key) => messages[key] ?? [])))];
}
