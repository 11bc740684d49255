/**
 * Auto-ads configs (`ConfigObj`) per client. A document is either one ConfigObj for every
 * page, or `{"rules": [{"urlPattern", "config"}], "default": ConfigObj}` where the first rule
 * whose pattern matches the page URL wins (docs/decisions/server-ads-config-format.md). Every
 * ConfigObj goes through the components' own parser, strictly: any diagnostic refuses it
 * (docs/decisions/auto-ads-config-parser.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONSTRAINTS } from '../src/wire/auto-ads-constraints.ts';
import type { AutoAdsConfigWire } from '../src/wire/protocol.ts';
import { parseFullAutoAdsConfig } from '../src/wire/auto-ads-formats.ts';
import { ConfigError, HttpError, invalidField } from './errors.ts';
import { strictRead, strictValue } from './strict.ts';
import { isRecord, type Read, readList, readObject, readText } from '../src/wire/values.ts';
import { compileUrlPattern, matchUrlPattern, type UrlPattern } from './url-pattern.ts';

export type AdsConfigRule = { readonly urlPattern: string; readonly config: AutoAdsConfigWire };

export type AdsConfigDocument = {
  readonly rules: readonly AdsConfigRule[];
  readonly default: AutoAdsConfigWire | null;
};

const adsClientExpected = 'a client id of 1-100 letters, digits or . _ -';
const adsClientPattern = /^[A-Za-z0-9._-]+$/;

/** A publisher client id (`ca-pub-1`), in queries, paths and config file names. */
export const readAdsClient = readText(100, 1, adsClientPattern, adsClientExpected);

/** Patterns compiled when their document is parsed; documents stay plain JSON for the store. */
const compiledPatterns = new WeakMap<AdsConfigRule, UrlPattern>();

/** The ConfigObj as served, once the shared parser found nothing wrong in it. */
function readConfig(value: unknown, field: string): AutoAdsConfigWire {
  strictValue(parseFullAutoAdsConfig(value, DEFAULT_CONSTRAINTS), field);
  return value as AutoAdsConfigWire;
}

const readRule: Read<AdsConfigRule> = (_into, value, field) => {
  const object = strictRead(readObject, value, field);
  const rule = {
    urlPattern: strictRead(readText(2000, 1), object['urlPattern'], `${field}.urlPattern`),
    config: readConfig(object['config'], `${field}.config`),
  };
  compiledPatterns.set(rule, compileUrlPattern(rule.urlPattern));
  return rule;
};

/** Throws HttpError 400 naming the offending field. */
export function parseAdsConfigDocument(value: unknown): AdsConfigDocument {
  if (isRecord(value) && Object.hasOwn(value, 'placements')) return { rules: [], default: readConfig(value, 'config') };
  const object = strictRead(readObject, value, 'document');
  if (!Object.hasOwn(object, 'rules') && !Object.hasOwn(object, 'default')) {
    throw invalidField('document', 'a ConfigObj with placements, or {rules, default}', value);
  }
  const rules = Object.hasOwn(object, 'rules') ? strictRead(readList(readRule, 1000), object['rules'], 'rules') : [];
  const fallback = object['default'] === undefined ? null : readConfig(object['default'], 'default');
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
    if (!adsClientPattern.test(client) || client.length > 100) {
      throw new ConfigError('ads-config-invalid', `${file}: file name must be <client id>.json, ${adsClientExpected}`);
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

/** `/path*` patterns match the URL's path; other patterns match the whole URL without its fragment. */
export function matchesUrlPattern(rule: AdsConfigRule, pageUrl: URL | null, rawUrl: string): boolean {
  const pattern = compiledPatterns.get(rule) ?? compileUrlPattern(rule.urlPattern);
  const subject = rule.urlPattern.startsWith('/')
    ? (pageUrl?.pathname ?? rawUrl)
    : pageUrl
      ? pageUrl.href.replace(/#.*$/, '')
      : rawUrl;
  return matchUrlPattern(pattern, subject);
}

export function selectAdsConfig(document: AdsConfigDocument, rawUrl: string | null): AutoAdsConfigWire {
  if (rawUrl !== null) {
    let pageUrl: URL | null = null;
    try {
      pageUrl = new URL(rawUrl);
    } catch {}
    const rule = document.rules.find((candidate) => matchesUrlPattern(candidate, pageUrl, rawUrl));
    if (rule) return rule.config;
  }
  return document.default ?? { placements: [], noConfigReason: 'no rule matches this url' };
}
