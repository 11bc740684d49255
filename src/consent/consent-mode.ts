/**
 * Google Consent Mode v2 (docs/consent.md, "Google Consent Mode v2"): `consentModeMapping` turns the consent state into
 * `gtag('consent', 'default' | 'update', ...)` calls. Parsing and mapping are pure; `startConsentMode`
 * drives the page's `gtag` (or the standard `dataLayer` queue it creates).
 */
import type { ConsentSnapshot, Diagnostic } from '../runtime/index.ts';
import type { Json } from '../wire/values.ts';
import { diagnostic } from '../wire/diagnostic.ts';

export const CONSENT_TYPES = [
  'ad_storage',
  'analytics_storage',
  'ad_user_data',
  'ad_personalization',
  'functionality_storage',
  'personalization_storage',
  'security_storage',
] as const;

export type ConsentType = (typeof CONSENT_TYPES)[number];
export type ConsentModeValue = 'granted' | 'denied';
/** `consent` (the global decision), `granted` (always) or `purpose:<name>`. */
export type ConsentModeMapping = Readonly<Partial<Record<ConsentType, string>>>;
export type ConsentModeOptions = {
  readonly waitForUpdate?: number;
  readonly adsDataRedaction?: boolean;
  readonly urlPassthrough?: boolean;
  /** Where the denied default applies (ISO 3166-1 or 3166-2 codes, as gtag takes them); elsewhere every type is granted. */
  readonly regions?: readonly string[];
  /** Google's tags read consent from the TC string (`enableAdvertiserConsentMode` in TCData). */
  readonly enableAdvertiserConsentMode?: boolean;
};

const isSource = (value: unknown) =>
  value === 'consent' || value === 'granted' || (typeof value === 'string' && /^purpose:./.test(value));

/** The valid mapping entries; each other entry is dropped with a diagnostic. */
export function parseConsentModeMapping(json: Json, diagnostics: Diagnostic[]): ConsentModeMapping {
  const entries = Object.entries(json).filter(([type, source]) => {
    const isValid = (CONSENT_TYPES as readonly string[]).includes(type) && isSource(source);
    if (!isValid)
      diagnostics.push(
        diagnostic('consent-mode-mapping-invalid', `${type}: "consent", "granted" or "purpose:<name>"`, source, type),
      );
    return isValid;
  });
  return Object.fromEntries(entries);
}

const OPTION_TYPES = {
  waitForUpdate: 'number',
  adsDataRedaction: 'boolean',
  urlPassthrough: 'boolean',
  enableAdvertiserConsentMode: 'boolean',
  // ISO 3166-1 alpha-2, or ISO 3166-2 (country, hyphen, subdivision), upper case as gtag takes them.
  regions: 'object',
} as const;

export function parseConsentModeOptions(json: Json, diagnostics: Diagnostic[]): ConsentModeOptions {
  const entries = Object.entries(json).filter(([name, value]) => {
    const type = Object.hasOwn(OPTION_TYPES, name) ? OPTION_TYPES[name as keyof typeof OPTION_TYPES] : undefined;
    const isValid =
      typeof value === type &&
      (type === 'number'
        ? (value as number) >= 0 && (value as number) <= 60_000
        : type === 'boolean' ||
          (Array.isArray(value) &&
            !!value.length &&
            value.every((code) => typeof code === 'string' && /^[A-Z]{2}(-[A-Z\d]{1,3})?$/.test(code))));
    if (!isValid)
      diagnostics.push(
        diagnostic(
          'consent-mode-options-invalid',
          `${name}: ${type === 'object' ? 'region codes' : (type ?? 'a known option')}`,
          value,
          name,
        ),
      );
    return isValid;
  });
  return Object.fromEntries(entries);
}

/** Every mapped type denied, except the `granted` ones. */
export const defaultConsentOf = (mapping: ConsentModeMapping): Record<string, ConsentModeValue> =>
  Object.fromEntries(
    Object.entries(mapping).map(([type, source]) => [type, source === 'granted' ? 'granted' : 'denied']),
  );

/** The consent of each mapped type in `snapshot`: not-required counts as granted. */
export function consentOf(
  mapping: ConsentModeMapping,
  { state, purposeConsents }: Pick<ConsentSnapshot, 'state' | 'purposeConsents'>,
) {
  const isFree = state === 'not-required';
  const isGranted = (source: string) => {
    if (source === 'granted') return true;
    if (source === 'consent') return state === 'accepted' || isFree;
    const purpose = source.slice('purpose:'.length);
    return Object.hasOwn(purposeConsents, purpose) ? purposeConsents[purpose] === true : isFree;
  };
  const entries = Object.entries(mapping).map(([type, source]) => [
    type,
    isGranted(source as string) ? 'granted' : 'denied',
  ]);
  return Object.fromEntries(entries) as Record<string, ConsentModeValue>;
}

type Gtag = (...args: unknown[]) => void;

/** The page's gtag, or the standard one over a (new) `dataLayer`. */
function gtagOfPage(): Gtag {
  const scope = self as unknown as { dataLayer?: unknown[]; gtag?: Gtag };
  const dataLayer = (scope.dataLayer ||= []);
  // gtag.js reads the `arguments` object, not an array.
  scope.gtag ||= function gtag() {
    // biome-ignore lint/complexity/noArguments: gtag.js expects the arguments object itself
    dataLayer.push(arguments);
  };
  return scope.gtag;
}

/**
 * Sends the default at once (with `regions`, the denied default for those regions and a granted one
 * for the rest, which gtag ranks below the regional one); returns the function that sends an update
 * on each change of a decided state.
 */
export function startConsentMode(mapping: ConsentModeMapping, options: ConsentModeOptions) {
  const gtag = gtagOfPage();
  const { waitForUpdate, adsDataRedaction, urlPassthrough, regions } = options;
  if (regions) gtag('consent', 'default', Object.fromEntries(Object.keys(mapping).map((type) => [type, 'granted'])));
  gtag('consent', 'default', {
    ...defaultConsentOf(mapping),
    ...(waitForUpdate === undefined ? {} : { wait_for_update: waitForUpdate }),
    ...(regions && { region: regions }),
  });
  if (adsDataRedaction) gtag('set', 'ads_data_redaction', true);
  if (urlPassthrough) gtag('set', 'url_passthrough', true);
  let sent = '';
  return (snapshot: Pick<ConsentSnapshot, 'state' | 'purposeConsents'>, isKnown: boolean) => {
    if (!isKnown || snapshot.state === 'unknown') return;
    const consent = consentOf(mapping, snapshot);
    if (sent !== (sent = JSON.stringify(consent))) gtag('consent', 'update', consent);
  };
}
