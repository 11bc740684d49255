/**
 * The placements of `placements` that are not in-content banners (docs/auto-ads.md, "Vignette"
 * and "Side rails"): `{"type": "vignette"}` and `{"type": "sideRail"}`, kept as they are by the
 * config parser and read here, by the part that shows the format (so the auto-ads bundle does not
 * carry their readers) and, with the rest of the config, by the server and the validator
 * (`parseFullAutoAdsConfig`). Any invalid field drops the placement with one
 * `auto-ads-placement-invalid` per bad field, and only the first placement of a format is used;
 * unknown fields are ignored. Limits and defaults: docs/decisions/vignettes-and-side-rails.md.
 */
import { type Attributes, readAttributes } from './auto-ads-attributes.ts';
import { type AutoAdsConfig, type FormatPlacement, parseAutoAdsConfig } from './auto-ads-config.ts';
import type { Constraints } from './auto-ads-constraints.ts';
import { diagnostic, type Parsed } from './diagnostic.ts';
import { type Experiment, parseExperiment } from './auto-ads-experiment.ts';
import {
  type Collector,
  collector,
  drop,
  type Json,
  optional,
  type Read,
  readBoolean,
  readNumber,
  readOneOf,
  withCode,
} from './values.ts';

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

type FormatReader<T> = (into: Collector, invalid: Collector, placement: Json, field: string) => T | undefined;

/** The first placement of `type` read by `read`; each later one is dropped with one diagnostic. */
export function readFormat<T>(
  formats: readonly FormatPlacement[],
  type: FormatPlacement['type'],
  read: FormatReader<T>,
): Parsed<T | undefined> {
  const into = collector('auto-ads-field-invalid');
  const [first, ...more] = formats.filter((format) => format.type === type);
  const value = first && read(into, withCode(into, 'auto-ads-placement-invalid'), first.placement, first.field);
  for (const { field } of more)
    into.diagnostics.push(diagnostic('auto-ads-placement-invalid', `at most one ${type} placement`, 'more', field));
  return { value, diagnostics: into.diagnostics };
}

/** The config as the server and the validator check it: the parser's diagnostics, then those of each format. */
export function parseFullAutoAdsConfig(
  json: unknown,
  defaults: Constraints,
): Parsed<(AutoAdsConfig & { vignette?: VignetteSpec; sideRail?: SideRailSpec; experiment?: Experiment }) | undefined> {
  const { value, diagnostics } = parseAutoAdsConfig(json, defaults);
  if (!value) return { value, diagnostics };
  const vignette = readFormat(value.formats, 'vignette', readVignette);
  const sideRail = readFormat(value.formats, 'sideRail', readSideRail);
  const experiment = parseExperiment(value.experimentSource);
  return {
    value: {
      ...value,
      ...(vignette.value && { vignette: vignette.value }),
      ...(sideRail.value && { sideRail: sideRail.value }),
      ...(experiment.value && { experiment: experiment.value }),
    },
    diagnostics: [...diagnostics, ...vignette.diagnostics, ...sideRail.diagnostics, ...experiment.diagnostics],
  };
}
