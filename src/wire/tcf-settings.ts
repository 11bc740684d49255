/**
 * The consent config's `tcf` object (docs/consent.md, "TC strings from our own prompts"):
 * `vendorListHref` (a GVL v3 JSON), `vendors` (GVL ids the site works with), `purposes`
 * (config purpose -> TCF purpose ids), `specialFeatures`, `publisherCountryCode`,
 * `consentLanguage`, `googleAtps` (Google's ATPs for the AC string, ids or "all" of the list at
 * `googleAtpListHref`), `publisherRestrictions` and `publisherPurposes` (src/wire/publisher-tcf.ts). With the CMP ids it is what `src/tcf/tc-string.ts` encodes under. A
 * mistyped field is dropped with a diagnostic; without a usable `vendorListHref` or `vendors`
 * no string can be built (null). Pure.
 */
import type { Parsed } from './diagnostic.ts';
import { parseLoadableUrl } from './url.ts';
import { readPurposeMap } from './purpose-id.ts';
import { type GoogleAtps, readGoogleAtps } from './google-atps.ts';
import {
  type PublisherPurposes,
  type PublisherRestriction,
  readPublisherPurposes,
  readPublisherRestrictions,
} from './publisher-tcf.ts';
import { collector, drop, type Json, own, readFields, readList, readNumber, readText } from './values.ts';

export type TcfConfig = {
  readonly vendorListHref: string;
  readonly vendors: number[];
  readonly purposes?: Record<string, number[]>;
  readonly specialFeatures?: number[];
  readonly publisherCountryCode?: string;
  readonly consentLanguage?: string;
  readonly googleAtps?: GoogleAtps;
  /** Google's ATP list as the reference server serves it (`/tcf/google-atps.json`), for `googleAtps: "all"`; resolved like `vendorListHref`. */
  readonly googleAtpListHref?: string;
  readonly publisherRestrictions?: PublisherRestriction[];
  readonly publisherPurposes?: PublisherPurposes;
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
  googleAtps: readGoogleAtps,
  googleAtpListHref: readText(2000, 1),
  publisherRestrictions: readPublisherRestrictions,
  publisherPurposes: readPublisherPurposes,
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
  const { googleAtps, googleAtpListHref, ...rest } = value;
  const atpListHref = httpUrlOf(googleAtpListHref, baseUrl);
  // "all" needs the list; without it the AC string is left out (no ATP gets consent it was not shown).
  const atps =
    googleAtps === 'all' && !atpListHref
      ? drop(
          into,
          'tcf.googleAtpListHref',
          'an http(s) URL of Google\'s ATP list with googleAtps "all"',
          googleAtpListHref,
        )
      : googleAtps;
  return {
    value:
      href && value.vendors
        ? {
            ...rest,
            vendorListHref: href,
            vendors: value.vendors,
            ...(atps ? { googleAtps: atps } : {}),
            ...(atpListHref ? { googleAtpListHref: atpListHref } : {}),
          }
        : null,
    diagnostics: into.diagnostics,
  };
}

const httpUrlOf = (href: string | undefined, baseUrl: string): string | undefined =>
  href ? parseLoadableUrl(href, baseUrl)?.href : undefined;
