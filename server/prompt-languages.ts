/**
 * One language per hosted prompt (docs/decisions/hosted-prompt-one-language.md): a TCF prompt
 * speaks the reader's language only when the server has both the prompt's own texts for it (a
 * message catalogue) and the IAB translation file covering the GVL; otherwise the GVL's language,
 * English, for everything. The admin page lists which languages are complete.
 */
import { cmpLanguages, type CmpLanguage, iabLanguageOf } from '../src/messages/language.ts';
import { firstUntranslated } from '../src/hosted-cmp/translation-coverage.ts';
import type { GvlTranslation } from '../src/wire/gvl-translation.ts';
import type { GvlJson } from '../src/wire/gvl.ts';
import type { TcfFiles } from './tcf-files.ts';

/** The language a TCF prompt speaks for a reader asking for `asked`, and the translation it uses (null for English). */
export async function tcfPromptLanguage(
  asked: CmpLanguage,
  gvl: GvlJson,
  files: TcfFiles,
): Promise<{ language: CmpLanguage; translation: GvlTranslation | null }> {
  const code = iabLanguageOf(asked);
  const translation = code ? await files.translation(code) : null;
  if (!code) return { language: asked, translation: null };
  return translation && firstUntranslated(gvl, translation) === null
    ? { language: asked, translation }
    : { language: 'en', translation: null };
}

/** One catalogue language and what the server has of the IAB's texts for it. */
export type LanguageStatus = {
  readonly language: CmpLanguage;
  /** The IAB's file name for it; null for English (the GVL's own language). */
  readonly translationFile: string | null;
  /** `complete`: the prompt speaks it; `partial`: the file leaves `untranslated` in English; `missing`: no readable file. */
  readonly state: 'complete' | 'partial' | 'missing';
  readonly untranslated?: string;
};

/** Every catalogue language with its state against the server's GVL; null without a GVL. */
export async function languageStatuses(files: TcfFiles): Promise<LanguageStatus[] | null> {
  const gvl = await files.vendorList();
  if (!gvl) return null;
  return Promise.all(
    cmpLanguages.map(async (language): Promise<LanguageStatus> => {
      const code = iabLanguageOf(language);
      if (!code) return { language, translationFile: null, state: 'complete' };
      const translationFile = `purposes-${code}.json`;
      const translation = await files.translation(code);
      const untranslated = translation ? firstUntranslated(gvl, translation) : null;
      if (!translation) return { language, translationFile, state: 'missing' };
      return untranslated === null
        ? { language, translationFile, state: 'complete' }
        : { language, translationFile, state: 'partial', untranslated };
    }),
  );
}
