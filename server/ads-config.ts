/**
 * Auto-ads configs (`ConfigObj`) per client. A document is either one ConfigObj for every
 * page, or `{"rules": [{"urlPattern", "config"}], "default": ConfigObj}` where the first rule
 * whose pattern matches the page URL wins (docs/decisions/server-ads-config-format.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutoAdsConfigWire } from '../src/protocol.ts';
import { parseAutoAdsConfig } from './ads-config-parse.ts';
import { ConfigError, HttpError, invalidField } from './errors.ts';
import { isObject, readArray, readObject, readString } from './fields.ts';

export type AdsConfigRule = { readonly urlPattern: string; readonly config: AutoAdsConfigWire };

export type AdsConfigDocument = { readonly rules: readonly AdsConfigRule[]; readonly default: AutoAdsConfigWire | null };

export const adsClientRule = {
  max: 100,
  pattern: /^[A-Za-z0-9._-]+$/,
  patternText: 'a client id of 1-100 letters, digits or . _ -',
} as const;

function readRule(value: unknown, field: string): AdsConfigRule {
  const object = readObject(value, field);
  return {
    urlPattern: readString(object['urlPattern'], `${field}.urlPattern`, { max: 2000 }),
    config: parseAutoAdsConfig(object['config'], `${field}.config`),
  };
}

/** Throws HttpError 400 naming the offending field. */
export function parseAdsConfigDocument(value: unknown): AdsConfigDocument {
  if (isObject(value) && 'placements' in value) return { rules: [], default: parseAutoAdsConfig(value, 'config') };
  const object = readObject(value, 'document');
  if (!('rules' in object) && !('default' in object)) {
    throw invalidField('document', 'a ConfigObj with placements, or {rules, default}', value);
  }
  const rules = 'rules' in object ? readArray(object['rules'], 'rules', readRule, 1000) : [];
  const fallback = object['default'] === undefined ? null : parseAutoAdsConfig(object['default'], 'default');
  return { rules, default: fallback };
}

/** Reads every `<client>.json` of a folder; throws a ConfigError naming the file and field. */
export function loadAdsConfigDir(dir: string): Map<string, AdsConfigDocument> {
  const documents = new Map<string, AdsConfigDocument>();
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return documents;
    throw error;
  }
  for (const name of names.sort()) {
    const client = name.slice(0, -'.json'.length);
    const file = join(dir, name);
    if (!adsClientRule.pattern.test(client)) {
      throw new ConfigError('ads-config-invalid', `${file}: file name must be <client id>.json, ${adsClientRule.patternText}`);
    }
    try {
      documents.set(client, parseAdsConfigDocument(JSON.parse(readFileSync(file, 'utf8'))));
    } catch (error) {
      const reason = error instanceof HttpError || error instanceof SyntaxError ? error.message : String(error);
      throw new ConfigError('ads-config-invalid', `${file}: ${reason}`);
    }
  }
  return documents;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

/** `/path*` patterns match the URL's path; other patterns match the whole URL without its fragment. */
export function matchesUrlPattern(pattern: string, pageUrl: URL | null, rawUrl: string): boolean {
  const subject = pattern.startsWith('/')
    ? (pageUrl?.pathname ?? rawUrl)
    : pageUrl
      ? pageUrl.href.replace(/#.*$/, '')
      : rawUrl;
  return globToRegExp(pattern).test(subject);
}

export function selectAdsConfig(document: AdsConfigDocument, rawUrl: string | null): AutoAdsConfigWire {
  if (rawUrl !== null) {
    let pageUrl: URL | null = null;
    try {
      pageUrl = new URL(rawUrl);
    } catch {}
    const rule = document.rules.find((candidate) => matchesUrlPattern(candidate.urlPattern, pageUrl, rawUrl));
    if (rule) return rule.config;
  }
  return document.default ?? { placements: [], noConfigReason: 'no rule matches this url' };
}
