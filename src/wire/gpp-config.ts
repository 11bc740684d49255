/**
 * The consent config's `gpp` object (docs/consent.md, "Signals for ad tech"): `usnat` holds the
 * notice and MSPA fields of the US national section (`SaleOptOutNotice: 1`,
 * `MspaCoveredTransaction: 2`, ...), the values the IAB's GPP spec gives them (0-2). The opt-out
 * fields come from the decision, never from the config. A field of another name or value is
 * dropped with a diagnostic. Pure.
 */
import type { Parsed } from './diagnostic.ts';
import { collector, drop, readFields, readMap, readNumber } from './values.ts';

export type GppConfig = { readonly usnat?: Readonly<Record<string, number>> };

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

const value = readNumber(0, 2);
const read = readFields<GppConfig>({ usnat: readMap(value, 20) });

export function parseGppConfig(json: unknown): Parsed<GppConfig | null> {
  const into = collector('consent-gpp-config-invalid');
  const config = read(into, json, 'gpp');
  if (!config?.usnat) return { value: config ?? null, diagnostics: into.diagnostics };
  const usnat = Object.entries(config.usnat).filter(([name, got]) => {
    const isKnown = (USNAT_CONFIG_FIELDS as readonly string[]).includes(name);
    if (!isKnown) drop(into, `gpp.usnat.${name}`, `one of ${USNAT_CONFIG_FIELDS.join(', ')}`, got);
    return isKnown;
  });
  return { value: { usnat: Object.fromEntries(usnat) }, diagnostics: into.diagnostics };
}
