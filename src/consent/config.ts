/**
 * The `<page-consent>` config (seed "Consent configuration object", PRODUCT 3.1): CMP preset,
 * `geoOverride` merge, `consentRequired` default after the merge, legacy `promptIfUnknown`,
 * `policy.default`, URL rules. Pure: returns the typed config, or null (fail closed), with
 * diagnostics.
 */
import type { Diagnostic, Parsed } from '../runtime/diagnostics.ts';
import { diagnose } from './diagnose.ts';
import { presets } from './presets.ts';

export type FallbackAction = 'reject' | 'dismiss';

export type ConsentConfig = {
  readonly consentInstanceId: string;
  readonly consentRequired: boolean | 'remote';
  readonly checkConsentHref: string | undefined;
  readonly onUpdateHref: string | undefined;
  readonly promptUI: string | undefined;
  readonly postPromptUI: string | undefined;
  readonly purposeConsentRequired: readonly string[];
  readonly xssiPrefix: string | undefined;
  readonly overlay: boolean;
  readonly consentPromptCaption: string;
  readonly buttonActionCaption: string;
  /** `policy.default.timeout` in seconds; null without a timeout. */
  readonly timeoutSeconds: number | null;
  readonly fallbackAction: FallbackAction;
  /** The `geoOverride` group merged over the base config, if any. */
  readonly matchedGeoGroup: string | null;
};

export type ConsentConfigOptions = {
  /** Geo groups the user is in, from `<page-geo>` (empty without geo). */
  readonly geoGroups: readonly string[];
  /** The element's `type` attribute (CMP preset), or null. */
  readonly type?: string | null;
  /** Base for relative URLs: the document URL. */
  readonly baseUrl: string;
};

type Json = Readonly<Record<string, unknown>>;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isSeconds = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value < 1e9;
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** Over `base`, one level deep: nested objects are merged, everything else replaced. */
export function mergeConfig(base: Json, over: Json): Json {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = base[key];
    merged[key] = isObject(below) && isObject(value) ? { ...below, ...value } : value;
  }
  return merged;
}

const isLoopback = (host: string) => /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(host);

/** https, or http on a loopback host (development); relative URLs resolve against `baseUrl`. */
export function isAllowedUrl(href: string, baseUrl: string): boolean {
  try {
    const { protocol, hostname } = new URL(href, baseUrl);
    return protocol === 'https:' || (protocol === 'http:' && isLoopback(hostname));
  } catch {
    return false;
  }
}

/** Merges the first `geoOverride` group the user is in; `consentInstanceId` in a group is refused. */
function applyGeoOverride(config: Json, groups: readonly string[], diagnostics: Diagnostic[]) {
  let merged = config;
  let matchedGeoGroup: string | null = null;
  const overrides = config.geoOverride ?? {};
  if (!isObject(overrides)) diagnostics.push(diagnose('consent-field-invalid', 'geoOverride: object', overrides));
  for (const [group, over] of Object.entries(isObject(overrides) ? overrides : {})) {
    if (!isObject(over)) {
      diagnostics.push(diagnose('consent-field-invalid', `geoOverride.${group}: object`, over));
      continue;
    }
    const { consentInstanceId, ...rest } = over;
    if (consentInstanceId !== undefined) {
      diagnostics.push(diagnose('consent-geo-instance-id', `no consentInstanceId in geoOverride.${group}`, consentInstanceId));
    }
    if (matchedGeoGroup === null && groups.includes(group)) {
      merged = mergeConfig(config, rest);
      matchedGeoGroup = group;
    }
  }
  return { merged, matchedGeoGroup };
}

/** `policy`: only `default`, with `waitFor` (ignored) and `timeout`. */
function parsePolicy(policy: unknown, instanceId: string, diagnostics: Diagnostic[]) {
  const problem = (code: string, expected: string, got: unknown) => diagnostics.push(diagnose(code, expected, got));
  const result = { timeoutSeconds: null as number | null, fallbackAction: 'dismiss' as FallbackAction };
  if (policy === undefined) return result;
  if (!isObject(policy)) {
    problem('consent-field-invalid', 'policy: object', policy);
    return result;
  }
  for (const key of Object.keys(policy)) if (key !== 'default') problem('consent-policy-key', 'only policy.default', key);
  const { waitFor, timeout } = isObject(policy.default) ? policy.default : {};
  if (waitFor !== undefined && (!isObject(waitFor) || Object.keys(waitFor).some((key) => key !== instanceId))) {
    problem('consent-policy-wait-for', `waitFor: {"${instanceId}": []}`, waitFor);
  }
  const { seconds, fallbackAction = 'dismiss' } = isObject(timeout) ? timeout : { seconds: timeout };
  if (seconds !== undefined) {
    if (isSeconds(seconds)) result.timeoutSeconds = seconds;
    else problem('consent-policy-timeout', 'timeout: seconds >= 0 or {seconds, fallbackAction}', timeout);
  }
  if (fallbackAction === 'reject') result.fallbackAction = fallbackAction;
  else if (fallbackAction !== 'dismiss') problem('consent-policy-fallback', 'fallbackAction: reject|dismiss', fallbackAction);
  return result;
}

export function parseConsentConfig(json: unknown, options: ConsentConfigOptions): Parsed<ConsentConfig | null> {
  const diagnostics: Diagnostic[] = [];
  const fail = (code: string, expected: string, got: unknown) => {
    diagnostics.push(diagnose(code, expected, got));
    return { value: null, diagnostics };
  };
  if (!isObject(json)) return fail('consent-config-invalid', 'a JSON object', json);
  let base = json;
  const { type } = options;
  if (type != null) {
    const preset = presets[type];
    if (preset) base = mergeConfig(preset, json);
    else diagnostics.push(diagnose('consent-type-unknown', 'a known CMP type', type));
  }
  const { merged: config, matchedGeoGroup } = applyGeoOverride(base, options.geoGroups, diagnostics);
  /** An optional field of the right type, else undefined with a diagnostic. */
  const field = <T>(key: string, is: (value: unknown) => value is T, expected: string, from: Json = config) => {
    const value = from[key];
    if (value === undefined || is(value)) return value;
    diagnostics.push(diagnose('consent-field-invalid', `${key}: ${expected}`, value));
  };
  const id = config.consentInstanceId;
  if (!isString(id) || !id) return fail('consent-instance-id', 'consentInstanceId: a non-empty string', id);
  const [checkConsentHref, onUpdateHref] = [config.checkConsentHref, config.onUpdateHref] as (string | undefined)[];
  for (const [key, href] of Object.entries({ checkConsentHref, onUpdateHref })) {
    if (href !== undefined && !(isString(href) && isAllowedUrl(href, options.baseUrl))) {
      return fail('consent-url-invalid', `${key}: an https URL (http only on loopback hosts)`, href);
    }
  }
  let required = config.consentRequired;
  if (required === undefined && config.promptIfUnknown !== undefined) {
    diagnostics.push(diagnose('consent-legacy-field', 'consentRequired', 'promptIfUnknown'));
    required = config.promptIfUnknown;
  }
  required ??= checkConsentHref ? 'remote' : undefined;
  if (required === undefined) {
    return fail('consent-required-missing', 'consentRequired: true for a client-only setup, or a checkConsentHref', required);
  }
  if (!isBoolean(required) && required !== 'remote') return fail('consent-required-invalid', 'consentRequired: true|false|"remote"', required);
  if (required === 'remote' && !checkConsentHref) return fail('consent-remote-href', 'a checkConsentHref with consentRequired "remote"', checkConsentHref);
  const uiConfig = field('uiConfig', isObject, 'object') ?? {};
  const captions = field('captions', isObject, 'object') ?? {};
  return {
    value: {
      consentInstanceId: id,
      consentRequired: required,
      checkConsentHref,
      onUpdateHref,
      promptUI: field('promptUI', isString, 'element id'),
      postPromptUI: field('postPromptUI', isString, 'element id'),
      purposeConsentRequired: field('purposeConsentRequired', isStringArray, 'array of purpose names') ?? [],
      xssiPrefix: field('xssiPrefix', isString, 'string'),
      overlay: field('overlay', isBoolean, 'boolean', uiConfig) ?? false,
      consentPromptCaption: field('consentPromptCaption', isString, 'string', captions) ?? 'User Consent Prompt',
      buttonActionCaption: field('buttonActionCaption', isString, 'string', captions) ?? 'Focus Prompt',
      ...parsePolicy(config.policy, id, diagnostics),
      matchedGeoGroup,
    },
    diagnostics,
  };
}
