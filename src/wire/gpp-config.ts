/**
 * The consent config's `gpp` object (docs/consent.md, "US privacy: GPP sections"): `approach`
 * (`"state"` or `"national"`, the default) says whether a US reader in a state with a GPP section
 * gets that section or `usnat`; `usnat` holds the notice and MSPA fields of the US national
 * section (`SaleOptOutNotice: 1`, `MspaCoveredTransaction: 2`, ...), and a state section's object
 * (`usca`, `usva`, ...) those of that section, the values the IAB's GPP spec gives them (0-2). A
 * state section without an object of its own takes the `usnat` fields of the same name. The
 * opt-out fields come from the decision, never from the config. Any other field or value is
 * dropped with a diagnostic. Pure.
 */
import type { Parsed } from './diagnostic.ts';
import { US_STATE_SECTIONS } from './gpp-state-sections.ts';
import { collector, drop, optional, readMap, readNumber, readObject, readOneOf } from './values.ts';

export type GppApproach = 'state' | 'national';
type Fields = Readonly<Record<string, number>>;
export type GppConfig = {
  readonly approach?: GppApproach;
  readonly usnat?: Fields;
  /** A state section's notice and MSPA fields, by the section's name (`usca`). */
  readonly sections?: Readonly<Record<string, Fields>>;
};

/** The usnat fields a publisher sets: the notices and the MSPA modes. */
export const USNAT_CONFIG_FIELDS = [
  'SharingNotice',
  'SaleOptOutNotice',
  'SharingOptOutNotice',
  'TargetedAdvertisingOptOutNotice',
  'SensitiveDataProcessingOptOutNotice',
  'SensitiveDataLimitUseNotice',
  'MspaCoveredTransaction',
  'MspaOptOutOptionMode',
  'MspaServiceProviderMode',
] as const;

/** A state section's fields a publisher may set: its notices and MSPA modes (which ones a section has, the IAB library says). */
const isStateField = (name: string) => /^(?:[A-Za-z]+Notice|MspaCoveredTransaction|Mspa[A-Za-z]*Mode)$/.test(name);
const isUsnatField = (name: string) => (USNAT_CONFIG_FIELDS as readonly string[]).includes(name);
const readValues = readMap(readNumber(0, 2), 20);

export function parseGppConfig(json: unknown): Parsed<GppConfig | null> {
  const into = collector('consent-gpp-config-invalid');
  const object = readObject(into, json, 'gpp');
  if (!object) return { value: null, diagnostics: into.diagnostics };
  const approach = optional(into, object, 'approach', readOneOf(['state', 'national'] as const), 'gpp.approach');
  let usnat: Fields | undefined;
  const sections: Record<string, Fields> = {};
  for (const [name, got] of Object.entries(object)) {
    if (name === 'approach' || got === null) continue;
    const isUsnat = name === 'usnat';
    if (!isUsnat && !US_STATE_SECTIONS.some(([, section]) => section === name)) {
      drop(into, `gpp.${name}`, 'approach, usnat or a US state section the library encodes (usca to usri)', got);
      continue;
    }
    const fields = readValues(into, got, `gpp.${name}`);
    if (!fields) continue;
    const expected = isUsnat ? `one of ${USNAT_CONFIG_FIELDS.join(', ')}` : 'a notice or MSPA field (SaleOptOutNotice)';
    const kept = Object.fromEntries(
      Object.entries(fields).filter(
        ([field, value]) =>
          (isUsnat ? isUsnatField : isStateField)(field) || drop(into, `gpp.${name}.${field}`, expected, value),
      ),
    );
    if (isUsnat) usnat = kept;
    else sections[name] = kept;
  }
  const value: GppConfig = {
    ...(approach && { approach }),
    ...(usnat && { usnat }),
    ...(Object.keys(sections).length && { sections }),
  };
  return { value, diagnostics: into.diagnostics };
}
