/**
 * The benchmark's baseline placement strategy, injected into the page instead of
 * `<page-auto-ads>`: the same decision as docs/auto-ads.md, "Placement" for the bench's config (anchors by
 * selector with `all`/`index`, positions 1-4, skip above the scroll position and inside the
 * viewport, the spacing rule of docs/auto-ads.md, "Config format", maxAdCount), but sequential as in the AMP reference
 * implementation: for each candidate, read its rect (and every ad's rect) then decide and
 * insert, so each read after an insertion forces a layout. Ads get their full height at once
 * (no change-size arbiter). Self-contained (src/ is not imported) and bundled by
 * auto-ads-pages.mjs; the "ads placed" column checks that both strategies decide alike.
 */
type Box = { readonly top: number; readonly bottom: number };
type WirePlacement = {
  anchor: { selector: string; all?: boolean; index?: number };
  pos: 1 | 2 | 3 | 4;
  attributes?: Record<string, string>;
};
type WireRule = { adCount: number; spacing: string };
type WireConfig = {
  placements: WirePlacement[];
  attributes?: Record<string, string>;
  adConstraints: { initialMinSpacing: string; subsequentMinSpacing?: WireRule[]; maxAdCount: number };
};

const AD_HEIGHT = 250;
const INSERT = [
  (anchor: Element, ad: Element) => anchor.before(ad),
  (anchor: Element, ad: Element) => anchor.prepend(ad),
  (anchor: Element, ad: Element) => anchor.append(ad),
  (anchor: Element, ad: Element) => anchor.after(ad),
];

const pageBox = (element: Element): Box => {
  const rect = element.getBoundingClientRect();
  return { top: rect.top + scrollY, bottom: rect.bottom + scrollY };
};

const toPixels = (spacing: string) =>
  spacing.endsWith('vp') ? Number.parseFloat(spacing) * innerHeight : Number.parseFloat(spacing);

function spacingFor(constraints: WireConfig['adConstraints'], adCount: number): number {
  let spacing = constraints.initialMinSpacing;
  for (const rule of constraints.subsequentMinSpacing ?? []) if (rule.adCount <= adCount) spacing = rule.spacing;
  return toPixels(spacing);
}

const distance = (y: number, box: Box) =>
  y >= box.top && y <= box.bottom ? 0 : Math.min(Math.abs(y - box.top), Math.abs(y - box.bottom));

function anchorsOf({ anchor }: WirePlacement): Element[] {
  const elements = [...document.querySelectorAll(anchor.selector)];
  return anchor.index !== undefined || !anchor.all
    ? elements.slice(anchor.index ?? 0, (anchor.index ?? 0) + 1)
    : elements;
}

function placeSequentially(config: WireConfig): number {
  let placed = 0;
  for (const placement of config.placements) {
    for (const anchor of anchorsOf(placement)) {
      const ads = [...document.querySelectorAll('page-ad:not([sticky])')].map(pageBox);
      if (ads.length >= config.adConstraints.maxAdCount) return placed;
      const box = pageBox(anchor);
      const y = placement.pos <= 2 ? box.top : box.bottom;
      if (y < scrollY + innerHeight) continue;
      const spacing = spacingFor(config.adConstraints, ads.length);
      if (ads.some((ad) => distance(y, ad) < spacing)) continue;
      const ad = document.createElement('page-ad');
      const attributes = {
        layout: 'fixed-height',
        type: 'custom',
        ...config.attributes,
        ...placement.attributes,
        height: String(AD_HEIGHT),
      };
      for (const [name, value] of Object.entries(attributes)) ad.setAttribute(name, value);
      INSERT[placement.pos - 1]!(anchor, ad);
      placed++;
    }
  }
  return placed;
}

async function run(url: string): Promise<void> {
  const config = (await (await fetch(url, { credentials: 'omit' })).json()) as WireConfig;
  if (document.readyState === 'loading')
    await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve));
  const adsPlaced = placeSequentially(config);
  const totalAdsOnPage = document.querySelectorAll('page-ad:not([sticky])').length;
  document.dispatchEvent(new CustomEvent('ads-placed', { bubbles: true, detail: { adsPlaced, totalAdsOnPage } }));
}

const configUrl = document.currentScript?.dataset['configUrl'];
if (configUrl) run(configUrl);
