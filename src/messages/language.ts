/**
 * The hosted consent prompt's languages: the 24 official EU languages plus Norwegian Bokmål and
 * Icelandic, one message catalogue each in `catalogues/<code>.json`. A reader's language is the
 * first of their preferences (`Accept-Language`, or the page's `clientConfig.lang`) that has a
 * catalogue; English when none has. Pure, shared by the server and the story prompt.
 */
export const cmpLanguages = [
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'fi',
  'fr',
  'ga',
  'hr',
  'hu',
  'is',
  'it',
  'lt',
  'lv',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'sl',
  'sv',
] as const;

export type CmpLanguage = (typeof cmpLanguages)[number];

/** A message catalogue: message key -> text (`{n}` for a number). */
export type Messages = Readonly<Record<string, string>>;

/** Tags whose primary subtag differs from our catalogue's code. */
const aliases: Readonly<Record<string, CmpLanguage>> = { no: 'nb', nn: 'nb' };

/** The catalogue for one BCP 47 tag (`de-AT` -> `de`, `no` -> `nb`), or null. */
export function matchLanguage(tag: string): CmpLanguage | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const alias = Object.hasOwn(aliases, primary) ? aliases[primary] : undefined;
  if (alias) return alias;
  return (cmpLanguages as readonly string[]).includes(primary) ? (primary as CmpLanguage) : null;
}

/** The best catalogue for an `Accept-Language` header (quality order, then header order). */
export function chooseLanguage(acceptLanguage: string | undefined): CmpLanguage {
  const ranked = (acceptLanguage ?? '')
    .slice(0, 1000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag, quality: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const language = matchLanguage(tag);
    if (language) return language;
  }
  return 'en';
}

/** The IAB's code for its translation files (`purposes-<code>.json`); null for English (the GVL's own). */
export function iabLanguageOf(language: CmpLanguage): string | null {
  if (language === 'en') return null;
  return language === 'nb' ? 'no' : language === 'pt' ? 'pt-pt' : language;
}
