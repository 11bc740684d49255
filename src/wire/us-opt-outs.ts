/**
 * The US opt-out categories of `consent.optOut` (docs/us-privacy.md, "The Do-Not-Sell/Share
 * control"): the action's `category` argument, the text a decision stores in
 * `consentMetadata.usOptOuts` (`"sale,sharing"`, read as text of up to 100 characters by
 * src/wire/consent.ts, like `gppSectionId`), the opt-outs a decision stands for, and the US privacy string
 * (`1YYN`) built from them. Pure; shared by the consent state, the signals, the GPP part and the
 * validator.
 */
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';
import { isRecord, own } from './values.ts';

export const US_OPT_OUT_CATEGORIES = ['sale', 'sharing', 'targetedAdvertising', 'sensitiveData'] as const;
export type UsOptOutCategory = (typeof US_OPT_OUT_CATEGORIES)[number];

/** What `consent.optOut` without a category opts out of: "Do Not Sell or Share", and targeted advertising. */
export const DEFAULT_OPT_OUTS: readonly UsOptOutCategory[] = ['sale', 'sharing', 'targetedAdvertising'];

const isCategory = (value: unknown): value is UsOptOutCategory =>
  US_OPT_OUT_CATEGORIES.includes(value as UsOptOutCategory);

/** The stored form of a list of categories. */
export const joinOptOuts = (categories: Iterable<UsOptOutCategory>): string => sortOptOuts(categories).join(',');

/** The categories in their canonical order, each once. */
export const sortOptOuts = (categories: Iterable<UsOptOutCategory>): UsOptOutCategory[] => {
  const set = new Set(categories);
  return US_OPT_OUT_CATEGORIES.filter((category) => set.has(category));
};

/**
 * The action's arguments (`category=sale`, or none): the categories to opt out of, or null
 * after one `consent-opt-out-category` diagnostic (an unknown category or argument).
 */
export function parseOptOutArguments(args: Readonly<Record<string, unknown>>): Parsed<UsOptOutCategory[] | null> {
  const names = Object.keys(args);
  const category = args['category'];
  if (!names.length) return { value: [...DEFAULT_OPT_OUTS], diagnostics: [] };
  if (names.length === 1 && isCategory(category)) return { value: [category], diagnostics: [] };
  const expected = `no argument or category=${US_OPT_OUT_CATEGORIES.join('|')}`;
  const bad: Diagnostic = diagnostic('consent-opt-out-category', expected, args);
  return { value: null, diagnostics: [bad] };
}

/** A decision as the opt-outs read it: its state, its stored categories, whether GPC rejected. */
export type OptOutSource = {
  readonly state: string;
  readonly consentMetadata?: { readonly usOptOuts?: string; readonly gpc?: boolean } | undefined;
};

/** The known categories of a stored `usOptOuts` text, in their canonical order. */
export const listOptOuts = (text: string): UsOptOutCategory[] =>
  US_OPT_OUT_CATEGORIES.filter((category) => text.split(',').includes(category));

/**
 * The categories a decision opts out of: the ones `consent.optOut` recorded (`usOptOuts`, the
 * known categories of its comma-separated text); else every one for a reject or a GPC rejection
 * (the strictest reading of "reject all"); none for anything else.
 */
export function optOutsOf({ state, consentMetadata }: OptOutSource): readonly UsOptOutCategory[] {
  const listed = consentMetadata?.usOptOuts;
  if (listed !== undefined) return listOptOuts(listed);
  return state === 'rejected' || consentMetadata?.gpc ? US_OPT_OUT_CATEGORIES : [];
}

/**
 * The notice fields of a `gpp` config's `usnat` object that the US privacy string reads
 * (`SaleOptOutNotice`, `MspaCoveredTransaction`), each kept only as an integer of 0-2; the GPP
 * part and the validator report the config's problems (src/wire/gpp-config.ts).
 */
export function usPrivacyFieldsOf(gpp: unknown): Readonly<Record<string, number>> {
  const usnat = isRecord(gpp) ? own(gpp, 'usnat') : undefined;
  const fields: Record<string, number> = {};
  for (const name of ['SaleOptOutNotice', 'MspaCoveredTransaction']) {
    const value = isRecord(usnat) ? own(usnat, name) : undefined;
    if (value === 0 || value === 1 || value === 2) fields[name] = value;
  }
  return fields;
}

/** One letter of a US privacy string from an IAB GPP value: 1 yes, 2 no, anything else not applicable. */
const letterOf = (value: number | undefined) => (value === 1 ? 'Y' : value === 2 ? 'N' : '-');

/**
 * The US privacy string (version 1) of a decision: notice given (`SaleOptOutNotice`), opted out
 * of sale, covered by the LSPA (`MspaCoveredTransaction`), the notice fields as the config's
 * `gpp.usnat` gives them.
 */
export function usPrivacyStringOf(source: OptOutSource, usnat: Readonly<Record<string, number>> | undefined): string {
  const isOptedOut = optOutsOf(source).includes('sale');
  return `1${letterOf(usnat?.['SaleOptOutNotice'])}${isOptedOut ? 'Y' : 'N'}${letterOf(usnat?.['MspaCoveredTransaction'])}`;
}
