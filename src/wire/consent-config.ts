/**
 * The `<page-consent>` config (docs/consent.md, "Config"): CMP `type`,
 * `geoOverride` merge, `consentRequired` default after the merge, legacy `promptIfUnknown`,
 * URL rules, then `policy.default` and `consentLifetimeDays` (the timing). Pure: returns the
 * typed config, or null (fail closed), with diagnostics. The consent core reads the config
 * without its timing before the prompt shows; its state part reads the timing
 * (docs/decisions/first-screen-parts.md).
 */
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';
import { type Preset, presetOf } from './consent-presets.ts';
import { type ConsentLifetime, parseConsentLifetime } from './consent-lifetime.ts';
import { isLoopbackHost } from './url.ts';
import { isRecord, type Json, own } from './values.ts';

export type FallbackAction = 'reject' | 'dismiss';

/** The inline config's optional fields, once `checkTypes` has dropped the mistyped ones. */
type ConfigFields = {
  readonly checkConsentHref?: string;
  readonly onUpdateHref?: string;
  readonly promptUI?: string;
  readonly postPromptUI?: string;
  readonly xssiPrefix?: string;
  /** The CMP iframe (docs/consent.md, "The CMP iframe"): its URL template, extra sandbox tokens, and client config. */
  readonly promptUiSrc?: string;
  readonly sandbox?: string;
  readonly clientConfig?: Json;
  /** Signals for ad tech (docs/consent.md, "Signals for ad tech"), checked further in src/consent/signals.ts. */
  readonly exposesTcfApi?: boolean;
  readonly exposesGppApi?: boolean;
  readonly cmpId?: number;
  readonly cmpVersion?: number;
  readonly gpc?: string;
  readonly consentModeMapping?: Json;
  readonly consentModeOptions?: Json;
  /** TC and usnat strings from our own prompts (docs/consent.md), read by the TCF and GPP parts. */
  readonly tcf?: Json;
  readonly gpp?: Json;
};

/** What the consent core reads: the config without its timing. */
export type ConsentCoreConfig = ConfigFields & {
  readonly consentInstanceId: string;
  readonly consentRequired: boolean | 'remote';
  readonly purposeConsentRequired: readonly string[];
  readonly overlay: boolean;
  readonly consentPromptCaption: string;
  readonly buttonActionCaption: string;
  /** The `geoOverride` group merged over the base config, if any. */
  readonly matchedGeoGroup: string | null;
  /** Read by `parseConsentTiming`, not here. */
  readonly policy?: Json;
  readonly consentLifetimeDays?: unknown;
};

/** How long the prompt waits and a decision lasts. */
export type ConsentTiming = {
  /** `policy.default.timeout` in seconds; null without a timeout. */
  readonly timeoutSeconds: number | null;
  readonly fallbackAction: FallbackAction;
  /** `consentLifetimeDays` per state (docs/consent.md, "Consent lifetime"). */
  readonly consentLifetime: ConsentLifetime;
};

export type ConsentConfig = ConsentCoreConfig & ConsentTiming;

export type ConsentConfigOptions = {
  /** Geo groups the user is in, from `<page-geo>` (empty without geo). */
  readonly geoGroups: readonly string[];
  /** The element's `type` attribute (CMP preset), or null. */
  readonly type?: string | null;
  /** Base for relative URLs: the document URL. */
  readonly baseUrl: string;
  /** The CMP presets `type` may name (src/wire/consent-presets.ts); none when absent. */
  readonly presets?: Readonly<Record<string, Preset>>;
};

/** The JSON type of a value; `string[]` for a list of strings. */
export const kindOf = (value: unknown): string =>
  Array.isArray(value)
    ? value.every((item) => typeof item === 'string')
      ? 'string[]'
      : 'array'
    : value === null
      ? 'null'
      : typeof value;

export const isObject = isRecord;

/** A copy without the fields whose type differs from `types` (one diagnostic each); null counts as absent. */
export function checkTypes(json: Json, types: Json, diagnostics: Diagnostic[]): Record<string, unknown> {
  const result: [string, unknown][] = [];
  for (const [key, value] of Object.entries(json)) {
    if (value === null) continue;
    const type = own(types, key);
    if (!type || kindOf(value) === type) result.push([key, value]);
    else diagnostics.push(diagnostic('consent-field-invalid', `${key}: ${type}`, value, key));
  }
  return Object.fromEntries(result);
}

const TYPES = {
  checkConsentHref: 'string',
  onUpdateHref: 'string',
  promptUI: 'string',
  postPromptUI: 'string',
  xssiPrefix: 'string',
  promptUiSrc: 'string',
  sandbox: 'string',
  clientConfig: 'object',
  purposeConsentRequired: 'string[]',
  uiConfig: 'object',
  overlay: 'boolean',
  captions: 'object',
  consentPromptCaption: 'string',
  buttonActionCaption: 'string',
  policy: 'object',
  geoOverride: 'object',
  promptIfUnknown: 'boolean',
  exposesTcfApi: 'boolean',
  exposesGppApi: 'boolean',
  cmpId: 'number',
  cmpVersion: 'number',
  gpc: 'string',
  consentModeMapping: 'object',
  consentModeOptions: 'object',
  tcf: 'object',
  gpp: 'object',
};

/** Fields read by the ad-tech signals (startSignals). */
const SIGNAL_FIELDS = [
  'exposesTcfApi',
  'exposesGppApi',
  'cmpId',
  'cmpVersion',
  'consentModeMapping',
  'consentModeOptions',
  'tcf',
  'gpp',
];

/**
 * Whether a `geoOverride` group of the config JSON sets a signal field: the signals then wait for
 * the geo groups; otherwise they can start from the base config before `<page-geo>` answers.
 */
export const hasGeoSignalFields = (json: unknown): boolean =>
  isObject(json) &&
  isObject(json.geoOverride) &&
  Object.values(json.geoOverride).some(
    (group) => isObject(group) && SIGNAL_FIELDS.some((key) => Object.hasOwn(group, key)),
  );

/** Over `base`, one level deep: nested objects are merged, everything else replaced. */
export function mergeConfig(base: Json, over: Json): Json {
  const merged = Object.entries(over).map(([key, value]) => {
    const under = own(base, key);
    return [key, isObject(under) && isObject(value) ? { ...under, ...value } : value];
  });
  return Object.fromEntries([...Object.entries(base), ...merged]);
}

/** https, or http when `isHttpAllowed` or on a loopback host (development); relative URLs resolve against `baseUrl`. */
export function isAllowedUrl(href: string, baseUrl: string, isHttpAllowed: boolean): boolean {
  try {
    const { protocol, hostname } = new URL(href, baseUrl);
    return protocol === 'https:' || (protocol === 'http:' && (isHttpAllowed || isLoopbackHost(hostname)));
  } catch {
    return false;
  }
}

/** `policy`: only `default`; its `waitFor` is ignored (docs/consent.md, "Config"), its `timeout` read. */
function parsePolicy(policy: Json, diagnostics: Diagnostic[]) {
  const { default: rule, ...others } = policy;
  for (const key in others) diagnostics.push(diagnostic('consent-policy-invalid', 'only policy.default', key));
  const timeout = isObject(rule) ? rule.timeout : undefined;
  const { seconds = timeout, fallbackAction = 'dismiss' } = isObject(timeout) ? timeout : {};
  const isSeconds = typeof seconds === 'number' && seconds >= 0 && seconds < 1e6;
  if ((seconds !== undefined && !isSeconds) || (fallbackAction !== 'reject' && fallbackAction !== 'dismiss')) {
    diagnostics.push(
      diagnostic('consent-policy-invalid', 'timeout: seconds or {seconds, fallbackAction: reject|dismiss}', timeout),
    );
  }
  return {
    timeoutSeconds: isSeconds ? seconds : null,
    fallbackAction: fallbackAction === 'reject' ? fallbackAction : ('dismiss' as FallbackAction),
  };
}

/** The timing of a parsed config: its `policy` and `consentLifetimeDays`. Never fails: a wrong value is reported and the default used. */
export function parseConsentTiming({ policy, consentLifetimeDays }: ConsentCoreConfig): Parsed<ConsentTiming> {
  const diagnostics: Diagnostic[] = [];
  const value = {
    ...parsePolicy(policy ?? {}, diagnostics),
    consentLifetime: parseConsentLifetime(consentLifetimeDays, diagnostics),
  };
  return { value, diagnostics };
}

/** The whole config, with its timing. */
export function parseConsentConfig(json: unknown, options: ConsentConfigOptions): Parsed<ConsentConfig | null> {
  const core = parseConsentCoreConfig(json, options);
  if (!core.value) return { value: null, diagnostics: core.diagnostics };
  const timing = parseConsentTiming(core.value);
  return { value: { ...core.value, ...timing.value }, diagnostics: [...core.diagnostics, ...timing.diagnostics] };
}

/** The config without its timing (what the consent core needs before its prompt shows). */
export function parseConsentCoreConfig(
  json: unknown,
  { geoGroups, type = null, baseUrl, presets = {} }: ConsentConfigOptions,
): Parsed<ConsentCoreConfig | null> {
  const diagnostics: Diagnostic[] = [];
  const fail = (code: string, expected: string, got: unknown) => {
    diagnostics.push(diagnostic(code, expected, got));
    return { value: null, diagnostics };
  };
  if (!isObject(json)) return fail('consent-config-invalid', 'one JSON <script> child with an object', json);
  // A CMP preset is merged under the inline config (inline wins).
  const preset = type === null ? undefined : presetOf(presets, type, json, baseUrl);
  if (type !== null && !preset)
    diagnostics.push(diagnostic('consent-type-unknown', `one of: ${Object.keys(presets).join(', ')}`, type));
  let merged = preset ? mergeConfig(preset, json) : json;
  let matchedGeoGroup: string | null = null;
  for (const [group, over] of Object.entries(isObject(merged.geoOverride) ? merged.geoOverride : {})) {
    const { consentInstanceId, ...rest } = isObject(over) ? over : {};
    if (consentInstanceId !== undefined)
      diagnostics.push(diagnostic('consent-geo-instance-id', `no consentInstanceId in ${group}`, consentInstanceId));
    if (!matchedGeoGroup && geoGroups.includes(group)) [merged, matchedGeoGroup] = [mergeConfig(merged, rest), group];
  }
  const config: ConfigFields & Json = checkTypes(merged, TYPES, diagnostics);
  const { consentInstanceId: id, checkConsentHref } = config;
  if (typeof id !== 'string' || !id) return fail('consent-instance-id', 'a consentInstanceId', id);
  for (const key of ['checkConsentHref', 'onUpdateHref'] as const) {
    const href = config[key];
    // docs/consent.md asks https of onUpdateHref only; checkConsentHref may be any http(s) URL.
    if (href !== undefined && !isAllowedUrl(href, baseUrl, key === 'checkConsentHref'))
      return fail('consent-url-invalid', `${key}: an https URL`, href);
  }
  const required = config.consentRequired ?? config.promptIfUnknown ?? (checkConsentHref ? 'remote' : undefined);
  if (required === undefined)
    return fail(
      'consent-required-missing',
      'consentRequired: true for a client-only setup, or a checkConsentHref',
      required,
    );
  if (required !== true && required !== false && (required !== 'remote' || !checkConsentHref)) {
    return fail(
      'consent-required-invalid',
      'consentRequired: true|false, or "remote" with a checkConsentHref',
      required,
    );
  }
  const uiConfig = checkTypes((config.uiConfig ?? {}) as Json, TYPES, diagnostics);
  const captions = checkTypes((config.captions ?? {}) as Json, TYPES, diagnostics);
  return {
    value: {
      ...config,
      consentInstanceId: id,
      consentRequired: required,
      purposeConsentRequired: (config.purposeConsentRequired ?? []) as string[],
      overlay: uiConfig.overlay === true,
      consentPromptCaption: (captions.consentPromptCaption ?? 'User Consent Prompt') as string,
      buttonActionCaption: (captions.buttonActionCaption ?? 'Focus Prompt') as string,
      matchedGeoGroup,
    },
    diagnostics,
  };
}
