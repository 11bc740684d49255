/**
 * The TCF section's publisher fields as data (docs/server.md, "Instances and policies"):
 * `tcf.publisherRestrictions`, `tcf.publisherPurposes`, `tcf.googleAtps` and `tcf.siteGroup`,
 * read from the config JSON with the wire layer's readers, and written back into it with the
 * other keys and their order kept (docs/decisions/admin-tcf-publisher-fields.md). What the
 * fields hold is written as typed, even where the server will refuse it: validation is the
 * server's. Pure: no DOM.
 */
import type { Diagnostic } from '../wire/diagnostic.ts';
import { readGoogleAtps } from '../wire/google-atps.ts';
import { readSiteGroup } from '../wire/instance-config.ts';
import { readPublisherPurposes, readPublisherRestrictions, type RestrictionType } from '../wire/publisher-tcf.ts';
import { collector, drop, isRecord, type Json, optional, own, parseJsonText } from '../wire/values.ts';

export type RestrictionRow = { purpose: number; type: RestrictionType; vendors: number[] };
/** A custom purpose as its fields hold it: the id as typed. */
export type CustomPurposeRow = {
  id: string;
  name: string;
  description: string;
  legalBasis: 'consent' | 'legitimateInterest';
};
export type AtpChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | { readonly kind: 'chosen'; ids: number[] };

export type PublisherSettings = {
  restrictions: RestrictionRow[];
  consentPurposes: number[];
  legitimateInterestPurposes: number[];
  customPurposes: CustomPurposeRow[];
  atps: AtpChoice;
  siteGroup: { name: string; url: string };
};

/** The four keys of `tcf` these fields own. */
export const PUBLISHER_KEYS = ['publisherRestrictions', 'publisherPurposes', 'googleAtps', 'siteGroup'] as const;

export const emptySettings = (): PublisherSettings => ({
  restrictions: [],
  consentPurposes: [],
  legitimateInterestPurposes: [],
  customPurposes: [],
  atps: { kind: 'none' },
  siteGroup: { name: '', url: '' },
});

const byId = (a: number, b: number) => a - b;

/**
 * The fields of a config's `tcf` (absent or null: empty fields). A value the readers refuse is
 * not in the fields; its diagnostic (the server's `invalid-field`, as a save would answer)
 * says which.
 */
export function settingsOf(tcf: unknown): { settings: PublisherSettings; diagnostics: readonly Diagnostic[] } {
  const into = collector('invalid-field');
  const settings = emptySettings();
  if (!isRecord(tcf)) {
    if (tcf !== undefined && tcf !== null) drop(into, 'tcf', 'a JSON object or null', tcf);
    return { settings, diagnostics: into.diagnostics };
  }
  const restrictions = optional(
    into,
    tcf,
    'publisherRestrictions',
    readPublisherRestrictions,
    'tcf.publisherRestrictions',
  );
  settings.restrictions = (restrictions ?? []).map(({ purpose, type, vendors }) => ({
    purpose,
    type,
    vendors: [...vendors],
  }));
  const purposes = optional(into, tcf, 'publisherPurposes', readPublisherPurposes, 'tcf.publisherPurposes');
  settings.consentPurposes = [...(purposes?.consent ?? [])].sort(byId);
  settings.legitimateInterestPurposes = [...(purposes?.legitimateInterest ?? [])].sort(byId);
  settings.customPurposes = (purposes?.custom ?? []).map((custom) => ({
    id: String(custom.id),
    name: custom.name,
    description: custom.description ?? '',
    legalBasis: custom.legalBasis,
  }));
  const atps = optional(into, tcf, 'googleAtps', readGoogleAtps, 'tcf.googleAtps');
  settings.atps =
    atps === undefined
      ? { kind: 'none' }
      : atps === 'all'
        ? { kind: 'all' }
        : { kind: 'chosen', ids: [...atps].sort(byId) };
  const siteGroup = optional(into, tcf, 'siteGroup', readSiteGroup, 'tcf.siteGroup');
  if (siteGroup) settings.siteGroup = { name: siteGroup.name, url: siteGroup.url };
  return { settings, diagnostics: into.diagnostics };
}

/** A custom purpose's id as typed: a number when it is digits, else the text (the server names it). */
const idOf = (text: string): number | string => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : text);

function purposesValue({ consentPurposes, legitimateInterestPurposes, customPurposes }: PublisherSettings) {
  const custom = customPurposes.map((row) => ({
    id: idOf(row.id),
    name: row.name,
    ...(row.description.trim() ? { description: row.description } : {}),
    legalBasis: row.legalBasis,
  }));
  const value = {
    ...(consentPurposes.length ? { consent: [...consentPurposes].sort(byId) } : {}),
    ...(legitimateInterestPurposes.length ? { legitimateInterest: [...legitimateInterestPurposes].sort(byId) } : {}),
    ...(custom.length ? { custom } : {}),
  };
  return Object.keys(value).length ? value : undefined;
}

/** The four keys' values as the config stores them; undefined: the key is left out. */
export function publisherFields(
  settings: PublisherSettings,
): Partial<Record<(typeof PUBLISHER_KEYS)[number], unknown>> {
  const { restrictions, atps, siteGroup } = settings;
  const name = siteGroup.name.trim();
  const url = siteGroup.url.trim();
  const fields = {
    publisherRestrictions: restrictions.length
      ? restrictions.map(({ purpose, type, vendors }) => ({ purpose, type, vendors: [...vendors].sort(byId) }))
      : undefined,
    publisherPurposes: purposesValue(settings),
    googleAtps: atps.kind === 'none' ? undefined : atps.kind === 'all' ? 'all' : [...atps.ids].sort(byId),
    siteGroup: name || url ? { name, url } : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export type PublisherKey = (typeof PUBLISHER_KEYS)[number];

/**
 * `tcf` with the `keys` (by default the four) set from `settings`: the other keys and the order
 * of all kept, a key the fields leave empty removed, a new one added at the end. No `tcf` and
 * nothing to write: null.
 */
export function tcfWith(
  tcf: unknown,
  settings: PublisherSettings,
  keys: readonly PublisherKey[] = PUBLISHER_KEYS,
): Json | null {
  const all = publisherFields(settings);
  const fields = Object.fromEntries(keys.flatMap((key) => (Object.hasOwn(all, key) ? [[key, all[key]]] : [])));
  const base = isRecord(tcf) ? tcf : {};
  if (!isRecord(tcf) && Object.keys(fields).length === 0) return null;
  const kept = Object.entries(base)
    .filter(([key]) => !(keys as readonly string[]).includes(key) || Object.hasOwn(fields, key))
    .map(([key, value]): [string, unknown] => [key, Object.hasOwn(fields, key) ? fields[key] : value]);
  const added = Object.entries(fields).filter(([key]) => !Object.hasOwn(base, key));
  return Object.fromEntries([...kept, ...added]);
}

/**
 * The config editor's text with the `keys` of its `tcf` written from `settings` (the other
 * keys, possibly holding a value the fields could not read, left as they are), indented as the
 * dashboard shows configs; null when the text is not a JSON object (it is left as it is).
 * Empty text is an empty config.
 */
export function configTextWith(
  text: string,
  settings: PublisherSettings,
  keys: readonly PublisherKey[] = PUBLISHER_KEYS,
): string | null {
  const config = text.trim() === '' ? {} : parseJsonText(text);
  if (!isRecord(config)) return null;
  const tcf = tcfWith(own(config, 'tcf'), settings, keys);
  const entries = Object.entries(config).map(([key, value]): [string, unknown] => [key, key === 'tcf' ? tcf : value]);
  if (tcf !== null && !Object.hasOwn(config, 'tcf')) entries.push(['tcf', tcf]);
  return JSON.stringify(Object.fromEntries(entries), null, 2);
}
