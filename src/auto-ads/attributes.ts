/**
 * Attributes of inserted ads: the allow-list applied to config `attributes`, placement
 * `attributes` and `stickyAdAttributes`, and the merge order of every layer.
 */
import type { Diagnostic } from '../runtime/index.ts';
import { diagnostic } from './diagnostic.ts';

export type Attributes = Readonly<Record<string, string>>;

const ALLOWED_NAME = /^(data-.+|type|layout|height|width|sticky)$/;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keeps allowed names with string, number or boolean values, stringified; reports the rest. */
export function parseAttributes(value: unknown, field: string, problems: Diagnostic[]): Attributes {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(diagnostic('auto-ads-field-invalid', `${field} as an object`, value));
    return {};
  }
  const attributes: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (!ALLOWED_NAME.test(name)) {
      problems.push(diagnostic('auto-ads-attribute-dropped', `${field} names type, layout, height, width, sticky or data-*`, name));
    } else if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
      attributes[name] = String(item);
    } else {
      problems.push(diagnostic('auto-ads-attribute-dropped', `${field}.${name} as a string, number or boolean`, item));
    }
  }
  return attributes;
}

/** Later layers win: defaults < network < config `attributes` < placement `attributes`. */
export function mergeAttributes(...layers: readonly Attributes[]): Attributes {
  return Object.assign({}, ...layers);
}
