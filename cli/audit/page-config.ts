/**
 * What the audit expects of a page, read from its markup with the validator's own readers (the
 * consent config parser for the base config and every `geoOverride` group, CMP presets
 * included): the consent element's id, and the expected requests. Expected are the consent
 * endpoints (every `...Href` and `...Src` URL of the config and of the parsed variants:
 * `checkConsentHref`, `onUpdateHref`, `promptUiSrc`, `tcf.vendorListHref`), compared by origin
 * and path, and the component scripts (`v0.js` and what it loads from its own `v0/` folder).
 * Also whether the GPC visit is due (us-readers.ts) and the debug geo hash of the page's first
 * own link to one that names a US place (`#page-geo=us-ca`), which that visit opens the page with.
 */
import { parseLoadableUrl } from '../../src/wire/url.ts';
import { isRecord, own, parseJsonText } from '../../src/wire/values.ts';
import { checkConsent } from '../check-consent.ts';
import { getAttribute, readText } from '../html-tree.ts';
import { findByTag, findJsonScripts, type Page, readPage } from '../page.ts';
import { isGpcVisitDue } from '../us-readers.ts';

export type PageExpectations = {
  /** The `<page-consent>` element's id, or null without one. */
  readonly consentId: string | null;
  /** Origin + path of each consent endpoint. */
  readonly endpoints: readonly string[];
  /** The folders that hold `v0.js`: a request for `v0.js` or `v0/...` there is a component. */
  readonly componentFolders: readonly string[];
  /** Whether the page is set up for US readers by the audit's rule: the GPC visit runs on it. */
  readonly isGpcVisitDue: boolean;
  /** `page-geo=us` or `page-geo=us-xx` from the page's first link to its own debug geo hash for a US place, or null. */
  readonly usGeoHash: string | null;
};

export const endpointOf = (url: string, base?: string): string | null => {
  const parsed = parseLoadableUrl(url, base);
  return parsed ? `${parsed.origin}${parsed.pathname}` : null;
};

/** Every string under a key ending in `Href` or `Src`, two levels deep, own properties only. */
function endpointFields(value: unknown, depth = 0): string[] {
  if (!isRecord(value) || depth > 2) return [];
  return Object.keys(value).flatMap((key) => {
    const field = own(value, key);
    return typeof field === 'string' && /(Href|Src)$/.test(key) ? [field] : endpointFields(field, depth + 1);
  });
}

/** The debug geo hash (`page-geo=us-ca`) of the first same-document link naming a US place. */
function readUsGeoHash(page: Page): string | null {
  for (const element of findByTag(page, 'a')) {
    const href = getAttribute(element, 'href') ?? '';
    const place = /^#(?:.*[&;])?page-geo=(us(?:-[a-z0-9]{1,3})?)(?![\w-])/i.exec(href)?.[1];
    if (place) return `page-geo=${place.toLowerCase()}`;
  }
  return null;
}

export function readExpectations(html: string, pageUrl: string): PageExpectations {
  const page = readPage(html, pageUrl);
  const { consent } = checkConsent(page);
  const [script] = consent ? findJsonScripts(consent.element) : [];
  const raw = script ? parseJsonText(readText(script)) : null;
  const urls = [...endpointFields(raw), ...(consent?.configs ?? []).flatMap((config) => endpointFields(config))];
  const componentFolders = findByTag(page, 'script').flatMap((element) => {
    const src = getAttribute(element, 'src');
    const url = src === null ? null : endpointOf(src, pageUrl);
    return url && /\/v0\.js$/.test(url) ? [url.slice(0, -'v0.js'.length)] : [];
  });
  return {
    consentId: consent ? getAttribute(consent.element, 'id') : null,
    endpoints: [...new Set(urls.flatMap((url) => endpointOf(url, pageUrl) ?? []))],
    componentFolders: [...new Set(componentFolders)],
    isGpcVisitDue: consent ? isGpcVisitDue(page, consent) : false,
    usGeoHash: readUsGeoHash(page),
  };
}

export function isExpected(url: string, expectations: PageExpectations): boolean {
  const endpoint = endpointOf(url);
  if (endpoint === null) return false;
  if (expectations.endpoints.includes(endpoint)) return true;
  return expectations.componentFolders.some(
    (folder) => endpoint === `${folder}v0.js` || endpoint.startsWith(`${folder}v0/`),
  );
}
