/**
 * Attributes of inserted ads from a remote auto-ads config (`attributes`, placement
 * `attributes`, `stickyAdAttributes`; docs/auto-ads.md, "Config format"): the allowed names, values stringified, and
 * the two rules that keep a config from weakening the page: no consent markers, and URL-valued
 * attributes only http(s) or relative (docs/decisions/auto-ads-config-parser.md).
 */
import { LOADABLE_URL, parseLoadableUrl } from './url.ts';
import { type Collector, drop, type Read, readObject, readText, withCode } from './values.ts';

export type Attributes = Readonly<Record<string, string>>;

/** `type`, `layout`, `data-*` (AMP's) plus `height`, `width`, `sticky` (the reference runtime's). */
const ALLOWED_NAME = /^(type|layout|height|width|sticky|data-[a-z0-9_.-]+)$/;
const ALLOWED_TEXT = 'a name type, layout, height, width, sticky or data-* (lowercase)';
/** Names whose value a component loads: `data-src`, `data-*-src`, `data-*-url`, `data-*-href`. */
const URL_NAME = /^data-(.+-)?(src|url|href)$/;
/** Relative URLs in a config are checked against an http(s) page; the page itself checks again. */
const CONFIG_BASE = 'https://config.invalid/';
const MAX_ATTRIBUTES = 100;
const readValue = readText(2000);

/** One attribute: its value as text, or undefined after one coded diagnostic. */
function readAttribute(into: Collector, name: string, value: unknown, field: string): string | undefined {
  if (name.startsWith('data-block-on-consent')) {
    return drop(
      withCode(into, 'auto-ads-consent-attribute-dropped'),
      field,
      'no consent marker (the page sets them)',
      name,
    );
  }
  const dropped = withCode(into, 'auto-ads-attribute-dropped');
  if (!ALLOWED_NAME.test(name)) return drop(dropped, field, ALLOWED_TEXT, name);
  const isScalar = typeof value === 'number' || typeof value === 'boolean';
  const text = readValue(dropped, isScalar ? String(value) : value, field);
  if (text !== undefined && URL_NAME.test(name) && !parseLoadableUrl(text, CONFIG_BASE)) {
    return drop(withCode(into, 'auto-ads-url-refused'), field, LOADABLE_URL, text);
  }
  return text;
}

/**
 * An attribute map: not an object is one `auto-ads-field-invalid`; each bad entry is dropped
 * with its own diagnostic and the others are kept.
 */
export const readAttributes: Read<Attributes> = (into, value, field) => {
  const map = readObject(withCode(into, 'auto-ads-field-invalid'), value, field);
  if (!map) return;
  const names = Object.keys(map);
  if (names.length > MAX_ATTRIBUTES) {
    return drop(
      withCode(into, 'auto-ads-field-invalid'),
      field,
      `at most ${MAX_ATTRIBUTES} attributes`,
      `${names.length} attributes`,
    );
  }
  const entries: [string, string][] = [];
  for (const name of names) {
    const text = readAttribute(into, name, map[name], `${field}.${name}`);
    if (text !== undefined) entries.push([name, text]);
  }
  return Object.fromEntries(entries);
};
