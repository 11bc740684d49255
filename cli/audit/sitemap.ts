/**
 * An XML sitemap read with a bounded reader (docs/validator.md, "A site"): no XML library and
 * no DTD, so no entity can expand and no external file is read. The text (already bounded by
 * the fetch) must start, after an XML declaration, comments and processing instructions, with a
 * `<urlset>` or `<sitemapindex>` root; a `<!DOCTYPE` anywhere refuses it. Each unprefixed
 * `<loc>` is read (an extension's `<image:loc>` is not), its CDATA and the five XML entities and
 * character references decoded, up to `MAX_LOCATIONS`; an http(s) URL of at most 2,048
 * characters is kept, anything else is counted as skipped. Pure.
 */

/** The sitemap protocol's own limit of URLs per file. */
export const MAX_LOCATIONS = 50_000;
const MAX_URL_CHARS = 2_048;

export type Sitemap = {
  readonly kind: 'urlset' | 'sitemapindex';
  readonly locations: readonly string[];
  /** `<loc>` values that are not an http(s) URL, too long, or past `MAX_LOCATIONS`. */
  readonly skipped: number;
};
export type SitemapRefusal = { readonly expected: string; readonly got: string };

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of a `<loc>`, decoded; null for an unknown entity or a bad character reference. */
export function decodeText(raw: string): string | null {
  const text = raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_match, data: string) => data.replace(/&/g, '&amp;'));
  let isValid = true;
  const refuse = () => {
    isValid = false;
    return '';
  };
  const decoded = text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);|&/gi, (_match, name: string | undefined) => {
    if (name === undefined) return refuse();
    if (!name.startsWith('#')) return Object.hasOwn(ENTITIES, name) ? (ENTITIES[name] ?? '') : refuse();
    const point = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return point > 0 && point <= 0x10ffff ? String.fromCodePoint(point) : refuse();
  });
  return isValid && !/<[^!]/.test(text) ? decoded.trim() : null;
}

const httpUrl = (text: string | null): string | null => {
  if (text === null || text.length > MAX_URL_CHARS) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/** The root element's local name, past the prolog; null when the text does not start with an element. */
function rootOf(text: string): string | null {
  const prolog = /^\uFEFF?(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->)*/.exec(text)?.[0] ?? '';
  return /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>/]/.exec(text.slice(prolog.length))?.[2] ?? null;
}

export function parseSitemap(text: string): Sitemap | SitemapRefusal {
  const expected = 'an XML sitemap (<urlset> or <sitemapindex>) without a DTD';
  if (/<!DOCTYPE/i.test(text)) return { expected, got: 'a document with a DTD (<!DOCTYPE>)' };
  const root = rootOf(text);
  if (root !== 'urlset' && root !== 'sitemapindex')
    return {
      expected,
      got: root === null ? `text that is not XML (${JSON.stringify(text.slice(0, 40))})` : `<${root}>`,
    };
  const locations: string[] = [];
  let skipped = 0;
  for (const raw of locTexts(withoutComments(text))) {
    const url = locations.length < MAX_LOCATIONS ? httpUrl(decodeText(raw)) : null;
    if (url === null) skipped += 1;
    else locations.push(url);
  }
  return { kind: root, locations, skipped };
}

/** The text without its comments, in one pass forward (a comment never closed runs to the end). */
function withoutComments(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let start = text.indexOf('<!--'); start >= 0; start = text.indexOf('<!--', at)) {
    parts.push(text.slice(at, start));
    const end = text.indexOf('-->', start + 4);
    at = end < 0 ? text.length : end + 3;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** The raw text of each `<loc>...</loc>`, in one pass forward (a `<loc>` never closed ends the reading). */
function* locTexts(body: string): Generator<string> {
  const open = /<loc(?:\s[^<>]*)?>/g;
  for (let match = open.exec(body); match; match = open.exec(body)) {
    const start = match.index + match[0].length;
    const end = body.indexOf('</loc', start);
    if (end < 0) return;
    yield body.slice(start, end);
    open.lastIndex = end;
  }
}

export const isSitemapRefusal = <T extends object>(value: T | SitemapRefusal): value is SitemapRefusal =>
  'expected' in value;
