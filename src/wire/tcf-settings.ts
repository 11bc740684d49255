/**
 * The consent config's `tcf` object (docs/consent.md, "TC strings from our own prompts"):
 * `vendorListHref` (a GVL v3 JSON), `vendors` (GVL ids the site works with), `purposes`
 * (config purpose -> TCF purpose ids), `specialFeatures`, `publisherCountryCode`,
 * `consentLanguage`. With the CMP ids it is what `src/tcf/tc-string.ts` encodes under. A
 * mistyped field is dropped with a diagnostic; without a usable `vendorListHref` or `vendors`
 * no string can be built (null). Pure.
 */
import type { Parsed } from './diagnostic.ts';
import { parseLoadableUrl } from './url.ts';
import { readPurposeMap } from './purpose-id.ts';
import { collector, drop, type Json, own, readFields, readList, readNumber, readText } from './values.ts';

export type TcfConfig = {
  readonly vendorListHref: string;
  readonly vendors: number[];
  readonly purposes?: Record<string, number[]>;
  readonly specialFeatures?: number[];
  readonly publisherCountryCode?: string;
  readonly consentLanguage?: string;
};

const gvlId = readNumber(1, 65535);
const purposeId = readNumber(1, 24);
const letters = readText(2, 2, /^[A-Za-z]{2}$/, 'two letters (ISO 3166-1 or ISO 639-1)');
const read = readFields<TcfConfig>({
  vendorListHref: readText(2000, 1),
  vendors: readList(gvlId, 5000),
  purposes: readPurposeMap(readList(purposeId, 24)),
  specialFeatures: readList(readNumber(1, 12), 12),
  publisherCountryCode: letters,
  consentLanguage: letters,
});

/** `vendorListHref` is resolved against `baseUrl`; it must be http(s). */
export function parseTcfConfig(json: unknown, baseUrl: string): Parsed<TcfConfig | null> {
  const into = collector('consent-tcf-config-invalid');
  const value = read(into, json, 'tcf');
  if (!value) return { value: null, diagnostics: into.diagnostics };
  const href = httpUrlOf(value.vendorListHref, baseUrl);
  const given = own(json as Json, 'vendorListHref');
  // A mistyped value was reported by its reader already; a missing or non-http one is reported here.
  if (!href && (given === undefined || value.vendorListHref !== undefined))
    drop(into, 'tcf.vendorListHref', 'an http(s) URL of a GVL v3 JSON', given);
  if (!value.vendors && own(json as Json, 'vendors') === undefined)
    drop(into, 'tcf.vendors', 'an array of GVL vendor ids', undefined);
  return {
    value: href && value.vendors ? { ...value, vendorListHref: href, vendors: value.vendors } : null,
    diagnostics: into.diagnostics,
  };
}

const httpUrlOf = (href: string | undefined, baseUrl: string): string | undefined =>
  href ? parseLoadableUrl(href, baseUrl)?.href : undefined;
