/**
 * The IAB's translation files (`purposes-<lang>.json`: names and descriptions of purposes,
 * special purposes, features, special features, stacks and data categories in one language),
 * read with the shared typed readers and laid over the GVL: an entry the translation has takes
 * its texts, every other one keeps the GVL's English.
 */
import type { Parsed } from '../wire/diagnostic.ts';
import type { GvlEntry, GvlJson } from '../wire/gvl.ts';
import { collector, own, readFields, readList, readMap, readNumber, readText } from '../wire/values.ts';

const SECTIONS = ['purposes', 'specialPurposes', 'features', 'specialFeatures', 'stacks', 'dataCategories'] as const;
type Section = (typeof SECTIONS)[number];
export type GvlTranslation = Partial<Record<Section, Readonly<Record<string, GvlEntry>>>>;

const readEntries = readMap(readFields<GvlEntry>({ id: readNumber(1, 65_535), name: readText(10_000, 1), description: readText(10_000), illustrations: readList(readText(10_000), 100) }), 200);
const readTranslationFields = readFields<GvlTranslation>(Object.fromEntries(SECTIONS.map((s) => [s, readEntries])) as never);

/** The translation's sections (null when it is not a JSON object), a diagnostic per entry left out. */
export function parseTranslation(json: unknown): Parsed<GvlTranslation | null> {
  const into = collector('consent-prompt-translation-invalid');
  return { value: readTranslationFields(into, json, 'translation') ?? null, diagnostics: into.diagnostics };
}

export function translateGvl(gvl: GvlJson, translation: GvlTranslation | null): GvlJson {
  if (!translation) return gvl;
  const merge = <T extends GvlEntry>(base: Readonly<Record<string, T>>, over: Readonly<Record<string, GvlEntry>> | undefined) =>
    Object.fromEntries(Object.entries(base).map(([key, value]) => {
      const translated = over ? own(over, key) : undefined;
      // An entry whose name was left out by the reader keeps the GVL's texts.
      return [key, translated?.name ? { ...value, name: translated.name, ...(translated.description ? { description: translated.description } : {}) } : value];
    }));
  return { ...gvl, ...Object.fromEntries(SECTIONS.map((section) => [section, merge(gvl[section], translation[section])])) };
}
