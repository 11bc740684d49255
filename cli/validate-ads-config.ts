/**
 * Validates an auto-ads config file (the ConfigObj of docs/auto-ads.md) with the shared parser. Strict, as
 * the reference server's `/ads/config` is: every diagnostic is an error.
 */
import { DEFAULT_CONSTRAINTS } from '../src/wire/auto-ads-constraints.ts';
import { parseFullAutoAdsConfig } from '../src/wire/auto-ads-formats.ts';
import { find, type Finding, toFinding } from './finding.ts';

const START = { line: 1, column: 1 };

export function validateAdsConfig(text: string): Finding[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return [find('auto-ads-config-invalid', 'valid JSON', error instanceof Error ? error.message : error, START)];
  }
  return parseFullAutoAdsConfig(json, DEFAULT_CONSTRAINTS).diagnostics.map((d) => toFinding(d, START, 'error'));
}
