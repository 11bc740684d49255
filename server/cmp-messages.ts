/**
 * The hosted prompt's message catalogues (src/messages/catalogues/<language>.json), read once at
 * start. A catalogue that is missing or not an object of strings stops the server at start,
 * where the unit test of the catalogues would already have failed.
 */
import { readFileSync } from 'node:fs';
import { type CmpLanguage, cmpLanguages } from '../src/messages/language.ts';
import type { Messages } from '../src/hosted-cmp/page-config.ts';

const dir = new URL('../src/messages/catalogues/', import.meta.url);

function readCatalogue(language: CmpLanguage): Messages {
  const json: unknown = JSON.parse(readFileSync(new URL(`${language}.json`, dir), 'utf8'));
  const entries = typeof json === 'object' && json !== null ? Object.entries(json) : [];
  if (!entries.length || entries.some(([, text]) => typeof text !== 'string')) throw new Error(`catalogues/${language}.json: expected an object of texts`);
  return Object.fromEntries(entries) as Messages;
}

export const catalogues: Readonly<Record<CmpLanguage, Messages>> = Object.fromEntries(
  cmpLanguages.map((language) => [language, readCatalogue(language)]),
) as Record<CmpLanguage, Messages>;
