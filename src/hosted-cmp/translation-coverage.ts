/**
 * Whether an IAB translation file covers the GVL (docs/decisions/hosted-prompt-one-language.md):
 * every purpose, special purpose, feature, special feature, stack and data category of the GVL
 * has a translated name, and a translated description where the GVL has one. Only then does the
 * hosted prompt speak that language; otherwise it speaks the GVL's (English) throughout. Pure.
 */
import type { GvlEntry, GvlJson } from '../wire/gvl.ts';
import { type GvlTranslation, TRANSLATION_SECTIONS } from '../wire/gvl-translation.ts';
import { own } from '../wire/values.ts';

const covers = (entry: GvlEntry, translated: GvlEntry | undefined): boolean =>
  Boolean(translated?.name) && (!entry.description || Boolean(translated?.description));

/** The first GVL entry the translation leaves in English (`purposes.3`), or null when it covers them all. */
export function firstUntranslated(gvl: GvlJson, translation: GvlTranslation): string | null {
  for (const section of TRANSLATION_SECTIONS) {
    const over = translation[section];
    for (const [key, entry] of Object.entries(gvl[section])) {
      if (!covers(entry, over ? own(over, key) : undefined)) return `${section}.${key}`;
    }
  }
  return null;
}

export const isCompleteTranslation = (gvl: GvlJson, translation: GvlTranslation | null): boolean =>
  translation !== null && firstUntranslated(gvl, translation) === null;
