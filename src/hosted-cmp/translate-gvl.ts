/**
 * An IAB translation (src/wire/gvl-translation.ts) laid over the GVL: an entry the translation
 * has takes its texts, every other one keeps the GVL's English.
 */
import type { GvlEntry, GvlJson } from '../wire/gvl.ts';
import { type GvlTranslation, TRANSLATION_SECTIONS } from '../wire/gvl-translation.ts';
import { own } from '../wire/values.ts';

export function translateGvl(gvl: GvlJson, translation: GvlTranslation | null): GvlJson {
  if (!translation) return gvl;
  const merge = <T extends GvlEntry>(
    base: Readonly<Record<string, T>>,
    over: Readonly<Record<string, GvlEntry>> | undefined,
  ) =>
    Object.fromEntries(
      Object.entries(base).map(([key, value]) => {
        const translated = over ? own(over, key) : undefined;
        // An entry whose name was left out by the reader keeps the GVL's texts.
        return [
          key,
          translated?.name
            ? {
                ...value,
                name: translated.name,
                ...(translated.description ? { description: translated.description } : {}),
              }
            : value,
        ];
      }),
    );
  return {
    ...gvl,
    ...Object.fromEntries(TRANSLATION_SECTIONS.map((section) => [section, merge(gvl[section], translation[section])])),
  };
}
