/**
 * The ad-network registry (docs/auto-ads.md, "Networks" and "Config format"): per `type`, the config URL, the attributes of
 * inserted ads, the default constraints and the ad size. Pure; shared by
 * `<page-auto-ads>` and the validator.
 */
import type { Attributes } from './auto-ads-attributes.ts';
import { type Constraints, DEFAULT_CONSTRAINTS } from './auto-ads-constraints.ts';
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';
import { parseLoadableUrl } from './url.ts';

/** The element's `data-*` attributes in camel case (`data-ad-client` -> `adClient`). */
export type NetworkData = Readonly<Record<string, string | undefined>>;

export type NetworkContext = {
  readonly data: NetworkData;
  readonly canonicalUrl: string;
  /** The page's own URL: relative config URLs resolve against it; same-origin is its origin. */
  readonly pageUrl: string;
};

/** The height of inserted ads for a viewport size; they are as wide as their container. */
export type Sizing = (viewport: { readonly width: number; readonly height: number }) => number;

/** docs/auto-ads.md, "Placement": 250 px, whatever the viewport. */
export const fixedHeight: Sizing = () => 250;

/**
 * AdSense's full-width responsive slots: under 488 px of viewport width, the height follows the
 * width (width / 1.2), at least 100 px and at most 300 px or the viewport height; else 250 px.
 */
export const responsiveHeight: Sizing = ({ width, height }) =>
  width < 488 ? Math.max(100, Math.min(Math.round(width / 1.2), 300, height)) : 250;

export type AdNetwork = {
  /** `data-*` attributes the element must carry, as written in markup. */
  readonly required: readonly string[];
  readonly defaultConstraints: Constraints;
  readonly sizing: Sizing;
  getConfigUrl(context: NetworkContext): Parsed<string | undefined>;
  getAttributes(data: NetworkData): Attributes;
};

const ok = (value: string, diagnostics: Diagnostic[] = []) => ({ value, diagnostics });

/** Google's public auto-ads config endpoint, used by `adsense` and `doubleclick`. */
function googleConfigUrl(client: string | undefined, canonicalUrl: string): Parsed<string> {
  const query = new URLSearchParams({
    client: client ?? '',
    plah: new URL(canonicalUrl).hostname,
    ama_t: 'amp',
    url: canonicalUrl,
  });
  return ok('https://pagead2.googlesyndication.com/getconfig/ama?' + query);
}

const adsense: AdNetwork = {
  required: ['data-ad-client'],
  defaultConstraints: DEFAULT_CONSTRAINTS,
  sizing: responsiveHeight,
  getConfigUrl: ({ data, canonicalUrl }) => googleConfigUrl(data.adClient, canonicalUrl),
  getAttributes: ({ adClient = '', adHost, adHostChannel }) => ({
    type: 'adsense',
    'data-ad-client': adClient,
    ...(adHost && { 'data-ad-host': adHost, ...(adHostChannel && { 'data-ad-host-channel': adHostChannel }) }),
  }),
};

const doubleclick: AdNetwork = {
  required: ['data-ad-legacy-client', 'data-slot'],
  defaultConstraints: DEFAULT_CONSTRAINTS,
  sizing: fixedHeight,
  getConfigUrl: ({ data, canonicalUrl }) => googleConfigUrl(data.adLegacyClient, canonicalUrl),
  getAttributes: ({ slot = '', json }) => ({ type: 'doubleclick', 'data-slot': slot, ...(json && { json }) }),
};

/** The self-hosted network: `data-config-url` (https, or http on the page's origin) plus `client` and `url`. */
const custom: AdNetwork = {
  required: ['data-config-url'],
  defaultConstraints: DEFAULT_CONSTRAINTS,
  sizing: fixedHeight,
  getConfigUrl({ data, canonicalUrl, pageUrl }) {
    const url = parseLoadableUrl(data.configUrl ?? '', pageUrl);
    if (!url || (url.protocol !== 'https:' && url.origin !== new URL(pageUrl).origin)) {
      return {
        value: undefined,
        diagnostics: [
          diagnostic('auto-ads-config-url-invalid', 'an https or same-origin http(s) data-config-url', data.configUrl),
        ],
      };
    }
    if (data.adClient) url.searchParams.set('client', data.adClient);
    if (!url.searchParams.has('url')) url.searchParams.set('url', canonicalUrl);
    return ok(url.href);
  },
  getAttributes: ({ adClient }) => ({ type: 'custom', ...(adClient && { 'data-ad-client': adClient }) }),
};

export const NETWORKS: Readonly<Record<string, AdNetwork>> = { adsense, doubleclick, custom };

export function getNetwork(type: string): AdNetwork | undefined {
  return Object.hasOwn(NETWORKS, type) ? NETWORKS[type] : undefined;
}
