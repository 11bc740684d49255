/**
 * What the GPP API carries for one decision (docs/consent.md, "US privacy: GPP sections"): the
 * CMP's own GPP string; else, with the TCF API too, the decision's TC string as the `tcfeuv2`
 * section (2); else, with a `gpp` config, the US section of the reader's place (usnat, 7, or
 * with `approach: "state"` the section of their state, 8 and up) from the decision: reject or
 * GPC opt out of sale, sharing and targeted advertising, accept does not, `consent.optOut` of
 * the categories it names (docs/decisions/gpp-state-sections.md, docs/decisions/us-opt-out.md). Pure apart from the library model it fills.
 */
import type { CmpApi } from '@iabgpp/cmpapi';
import { type ConsentSignal, STRING_TYPE, stringOfType } from '../consent/signal-source.ts';
import type { DiagnosticLevel } from '../runtime/index.ts';
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';
import type { GppConfig } from '../wire/gpp-config.ts';
import { gppSectionIds } from '../wire/gpp-sections.ts';
import { US_STATE_SECTIONS } from '../wire/gpp-state-sections.ts';
import { optOutsOf, type UsOptOutCategory } from '../wire/us-opt-outs.ts';

export function applicableSectionsOf(gppSectionId: string | undefined): number[] {
  const ids = gppSectionIds(gppSectionId);
  return ids.length ? ids : [-1];
}

/** A GPP section: its name and id. */
export type Section = readonly [name: string, id: number];
export const USNAT: Section = ['usnat', 7];

/** Where `<page-geo>` placed the reader (its `geo` service); null: no `<page-geo>`, or no answer in time. */
export type Place = { readonly country: string; readonly subdivision: string } | null;

/**
 * The US section of a reader at `place`: with `approach: "state"`, a US reader's state section
 * when the GPP has one; `usnat` for every other reader (another state, an unknown state or
 * place, `approach: "national"`). `<page-geo>` has already read a subdivision that is no US state
 * as `unknown`, with its own diagnostic (`geo-subdivision-invalid`).
 */
export function sectionOfPlace(config: GppConfig, place: Place): Section {
  const state =
    config.approach === 'state' && place?.country === 'us'
      ? US_STATE_SECTIONS.find(([code]) => code === place.subdivision)
      : undefined;
  return state ? [state[1], state[2]] : USNAT;
}

/** Opt-out values (sale, sharing, targeted advertising, sensitive data): 1 opted out, 2 did not. */
const OPTED_OUT = 1;
const NOT_OPTED_OUT = 2;
/** The opt-out fields and the category each stands for. */
const OPT_OUTS = [
  ['SharingOptOut', 'sharing'],
  ['TargetedAdvertisingOptOut', 'targetedAdvertising'],
] as const;
/** The sections whose `SensitiveDataProcessing` is an opt-out (elsewhere it is a consent, which no prompt of ours asks for). */
const SENSITIVE_OPT_OUT = ['usnat', 'usca', 'usut', 'usia'];

type SectionModel = Pick<CmpApi, 'setFieldValue' | 'getSection'>;
type Report = (d: Diagnostic, level?: DiagnosticLevel) => void;

/**
 * Fills section `name` of `model` for an accepted or rejected `signal`: the config's notice and
 * MSPA fields (the section's own object, else the `usnat` fields the section has too), the
 * opt-outs from the decision (`optOutsOf`: the categories `consent.optOut` recorded, else all of
 * them for a reject or GPC), GPC where the section carries it, and every sensitive-data category
 * opted out where that is an opt-out and the reader opted out of sensitive data. Consent fields
 * (sensitive data elsewhere, known children, personal data, additional processing) keep the
 * library's 0: we never claim a consent no prompt asked for. Throws when the library does not
 * know the section. Reports a configured field the section does not have.
 */
export function fillSection(
  model: SectionModel,
  name: string,
  signal: ConsentSignal,
  config: GppConfig,
  report: Report,
): void {
  const isGpc = signal.consentMetadata?.gpc === true;
  const optOuts = optOutsOf(signal);
  const optOutValue = (category: UsOptOutCategory) => (optOuts.includes(category) ? OPTED_OUT : NOT_OPTED_OUT);
  model.setFieldValue(name, 'SaleOptOut', optOutValue('sale'));
  const fields = model.getSection(name) as Record<string, unknown>;
  const own = config.sections?.[name];
  for (const [field, value] of Object.entries(own ?? config.usnat ?? {}))
    if (field in fields) model.setFieldValue(name, field, value);
    else if (own)
      report(diagnostic('consent-gpp-config-invalid', `gpp.${name}.${field}: a field of ${name}`, value), 'warn');
  for (const [field, category] of OPT_OUTS)
    if (field in fields) model.setFieldValue(name, field, optOutValue(category));
  if ('Gpc' in fields) {
    model.setFieldValue(name, 'GpcSegmentIncluded', true);
    model.setFieldValue(name, 'Gpc', isGpc);
  }
  const sensitive = fields['SensitiveDataProcessing'];
  if (optOuts.includes('sensitiveData') && Array.isArray(sensitive) && SENSITIVE_OPT_OUT.includes(name))
    model.setFieldValue(
      name,
      'SensitiveDataProcessing',
      sensitive.map(() => OPTED_OUT),
    );
}

/** The TC string a decision carries for `__tcfapi` (a type 2 string, or one without a type). */
export const tcStringOf = (signal: ConsentSignal): string => {
  const type = signal.consentMetadata?.consentStringType;
  return type === undefined || type === STRING_TYPE.tcfV2 ? (signal.consentString ?? '') : '';
};

/**
 * Fills `api` with the sections our decision gives when it has no GPP string; returns the
 * applicable sections. A state section the library cannot encode is reported
 * (`consent-gpp-section-unsupported`) and `usnat` given instead.
 */
export function fillOwnSections(
  api: CmpApi,
  signal: ConsentSignal,
  hasTcf: boolean,
  config: GppConfig | null,
  section: Section,
  report: Report,
): number[] {
  api.clear();
  const tcString = hasTcf ? tcStringOf(signal) : '';
  if (tcString && signal.isConsentRequired !== false) {
    api.setSectionString('tcfeuv2', tcString);
    return [2];
  }
  const { state } = signal;
  const hasFields = config?.usnat || (section !== USNAT && config?.sections?.[section[0]]);
  if (!config || !hasFields || (state !== 'accepted' && state !== 'rejected')) return [-1];
  try {
    fillSection(api, section[0], signal, config, report);
    return [section[1]];
  } catch (error) {
    report(
      diagnostic('consent-gpp-section-unsupported', `a section the IAB library encodes (${section[0]})`, String(error)),
      'warn',
    );
    api.clear();
    if (!config.usnat) return [-1];
    fillSection(api, USNAT[0], signal, config, report);
    return [USNAT[1]];
  }
}

export const gppStringOf = (signal: ConsentSignal): string => stringOfType(signal, STRING_TYPE.gpp);
