/**
 * The IAB's translation files (`purposes-<lang>.json`: names and descriptions of purposes,
 * special purposes, features, special features, stacks and data categories in one language),
 * read with the shared typed readers. The hosted prompt lays them over the GVL
 * (src/hosted-cmp/translate-gvl.ts).
 */
import type { Parsed } from './diagnostic.ts';
import type { GvlEntry } from './gvl.ts';
import { collector, readFields, readList, readMap, readNumber, readText } from './values.ts';

export const TRANSLATION_SECTIONS = [
  'purposes',
  'specialPurposes',
  'features',
  'specialFeatures',
  'stacks',
  'dataCategories',
] as const;
type Section = (typeof TRANSLATION_SECTIONS)[number];
export type GvlTranslation = Partial<Record<Section, Readonly<Record<string, GvlEntry>>>>;

const readEntries = readMap(
  readFields<GvlEntry>({
    id: readNumber(1, 65_535),
    name: readText(10_000, 1),
    description: readText(10_000),
    illustrations: readList(readText(10_000), 100),
  }),
  200,
);
const readTranslationFields = readFields<GvlTranslation>(
  Object.fromEntries(TRANSLATION_SECTIONS.map((s) => [s, readEntries])) as never,
);

/** The translation's sections (null when it is not a JSON object), a diagnostic per entry left out. */
export function parseTranslation(json: unknown): Parsed<GvlTranslation | null> {
  const into = collector('consent-prompt-translation-invalid');
  return { value: readTranslationFields(into, json, 'translation') ?? null, diagnostics: into.diagnostics };
}
