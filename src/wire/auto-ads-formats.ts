/**
 * The placements of `placements` that are not in-content banners (docs/auto-ads.md, "Vignette"
 * and "Side rails"): `{"type": "vignette"}` and `{"type": "sideRail"}`. Any invalid field drops
 * the placement with one `auto-ads-placement-invalid` per bad field; unknown fields are ignored.
 * Limits and defaults: docs/decisions/vignettes-and-side-rails.md.
 */
import { type Attributes, readAttributes } from './auto-ads-attributes.ts';
import { type Collector, drop, type Json, optional, type Read, readBoolean, readNumber, readOneOf } from './values.ts';

export type VignetteSpec = {
  /** At most one vignette per this many seconds per site (0: no cap). */
  readonly intervalSeconds: number;
  /** Opt-in: show when the tab is shown again after being hidden at least this long. */
  readonly tabReturnSeconds: number | undefined;
  /** Opt-in: show once the end of the main content is reached. */
  readonly isArticleEndTrigger: boolean;
  /** The navigation goes on when the ad has not loaded within this time. */
  readonly timeoutMs: number;
  readonly attributes: Attributes;
};

export type RailSide = 'left' | 'right';

export type SideRailSpec = {
  readonly sides: readonly RailSide[];
  /** The widths tried, widest first: 300 and 160 px, or the one the config names. */
  readonly widths: readonly number[];
  readonly attributes: Attributes;
};

export const VIGNETTE_DEFAULT_INTERVAL_SECONDS = 3600;
export const VIGNETTE_DEFAULT_TIMEOUT_MS = 3000;
export const RAIL_WIDTHS = [300, 160] as const;

const readInterval = readNumber(0, 7 * 24 * 3600);
const readTabReturn = readNumber(1, 24 * 3600);
const readTimeout = readNumber(500, 10_000);
const readSides = readOneOf(['left', 'right', 'both']);
const readWidth: Read<number> = (into, value, field) =>
  value === 160 || value === 300 ? value : drop(into, field, '160 or 300', value);

/**
 * Reads the fields of a placement whose `type` is already known (`invalid`: the placement's code);
 * undefined when any field is bad. Attributes are dropped one by one, as for banners.
 */
function readAll<T>(into: Collector, invalid: Collector, placement: Json, field: string, read: () => T) {
  const count = invalid.diagnostics.length;
  const value = read();
  const isValid = invalid.diagnostics.length === count;
  const attributes = optional(into, placement, 'attributes', readAttributes, `${field}.attributes`) ?? {};
  return isValid ? { ...value, attributes } : undefined;
}

export function readVignette(
  into: Collector,
  invalid: Collector,
  placement: Json,
  field: string,
): VignetteSpec | undefined {
  const read = (key: string, reader: Read<number | boolean>) =>
    optional(invalid, placement, key, reader, `${field}.${key}`);
  return readAll(into, invalid, placement, field, () => ({
    intervalSeconds: (read('intervalSeconds', readInterval) as number | undefined) ?? VIGNETTE_DEFAULT_INTERVAL_SECONDS,
    tabReturnSeconds: read('tabReturnSeconds', readTabReturn) as number | undefined,
    isArticleEndTrigger: (read('articleEnd', readBoolean) as boolean | undefined) ?? false,
    timeoutMs: (read('timeoutMs', readTimeout) as number | undefined) ?? VIGNETTE_DEFAULT_TIMEOUT_MS,
  }));
}

export function readSideRail(
  into: Collector,
  invalid: Collector,
  placement: Json,
  field: string,
): SideRailSpec | undefined {
  return readAll(into, invalid, placement, field, () => {
    const sides = optional(invalid, placement, 'sides', readSides, `${field}.sides`) ?? 'both';
    const width = optional(invalid, placement, 'width', readWidth, `${field}.width`);
    return {
      sides: sides === 'both' ? (['left', 'right'] as const) : [sides],
      widths: width ? [width] : RAIL_WIDTHS,
    };
  });
}
