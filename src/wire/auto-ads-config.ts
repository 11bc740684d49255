/**
 * The one parser of the auto-ads ConfigObj (wire names and rules of docs/auto-ads.md, "Config format"), shared by
 * `<page-auto-ads>` (lenient: invalid parts are dropped, the rest is used), the server's
 * `/ads/config` (strict: any diagnostic refuses the config) and the validator. Every problem
 * is one coded diagnostic naming its field; nothing is coerced, nothing throws.
 * Choices: docs/decisions/auto-ads-config-parser.md.
 */
import { type Attributes, readAttributes } from './auto-ads-attributes.ts';
import { type Constraints, readConstraints } from './auto-ads-constraints.ts';
import { diagnostic, type Parsed } from './diagnostic.ts';
import {
  collector,
  type Collector,
  drop,
  isRecord,
  type Json,
  optional,
  own,
  type Read,
  readBoolean,
  readList,
  readNumber,
  readObject,
  readText,
  withCode,
} from './values.ts';

/** `pos` 1-4 (docs/auto-ads.md, "Config format"). */
export type Position = 'before' | 'first-child' | 'last-child' | 'after';
const POSITIONS: readonly Position[] = ['before', 'first-child', 'last-child', 'after'];

export type AnchorSpec = {
  readonly selector: string;
  readonly index: number | undefined;
  readonly isAll: boolean;
  readonly minimumTextLength: number;
  readonly sub: AnchorSpec | undefined;
};

export type PlacementSpec = {
  readonly anchor: AnchorSpec;
  readonly position: Position;
  readonly marginTop: number;
  readonly marginBottom: number;
  readonly attributes: Attributes;
};

export type AutoAdsConfig = {
  readonly placements: readonly PlacementSpec[];
  readonly attributes: Attributes;
  readonly constraints: Constraints;
  /** `optInStatus` contains 2 (anchor ads). */
  readonly isAnchorAdEnabled: boolean;
  readonly stickyAttributes: Attributes;
  /** The `vignette` and `sideRail` placements, read by their parts (src/wire/auto-ads-formats.ts). */
  readonly formats: readonly FormatPlacement[];
  /** The config object itself when it has an `experiment`, for the experiment part (src/wire/auto-ads-experiment.ts). */
  readonly experimentSource?: Json;
};

/** A placement of another format than the banner, as the config has it, with its path. */
export type FormatPlacement = {
  readonly type: 'vignette' | 'sideRail';
  readonly placement: Json;
  readonly field: string;
};

type Item = PlacementSpec | FormatPlacement;
const isFormat = (item: Item): item is FormatPlacement => 'field' in item;

/** `sub` anchors nest at most this deep below the placement's anchor. */
export const MAX_SUB_DEPTH = 10;
const MAX_PLACEMENTS = 500;
const readSelector = readText(1000, 1, /\S/, 'a CSS selector of 1-1000 characters');
const readIndex = readNumber(0, 9999);
const readMinimumLength = readNumber(0, 1_000_000, false);
const readMargin = readNumber(0, 10_000, false);

function readAnchor(depth: number): Read<AnchorSpec> {
  return (into, value, field) => {
    const anchor = readObject(into, value, field);
    if (!anchor) return;
    const count = into.diagnostics.length;
    const selector = readSelector(into, own(anchor, 'selector'), `${field}.selector`);
    const index = optional(into, anchor, 'index', readIndex, `${field}.index`);
    const isAll = optional(into, anchor, 'all', readBoolean, `${field}.all`) ?? false;
    const minimumTextLength = optional(into, anchor, 'min_c', readMinimumLength, `${field}.min_c`) ?? 0;
    const sub = optional(into, anchor, 'sub', readSub(depth), `${field}.sub`);
    if (selector === undefined || into.diagnostics.length > count) return;
    return { selector, index, isAll, minimumTextLength, sub };
  };
}

function readSub(depth: number): Read<AnchorSpec> {
  return (into, value, field) =>
    depth < MAX_SUB_DEPTH
      ? readAnchor(depth + 1)(into, value, field)
      : drop(into, field, `no deeper than ${MAX_SUB_DEPTH} sub anchors`, 'more');
}

const readPosition: Read<Position> = (into, value, field) =>
  (typeof value === 'number' && POSITIONS[value - 1]) ||
  drop(into, field, '1 (BEFORE), 2 (FIRST_CHILD), 3 (LAST_CHILD) or 4 (AFTER)', value);

const readBanner: Read<1> = (into, value, field) =>
  value === 1 ? 1 : drop(into, field, '1 (BANNER), "vignette" or "sideRail"', value);

function readMargins(into: Collector, placement: Json, field: string) {
  const style = optional(into, placement, 'style', readObject, `${field}.style`) ?? {};
  return {
    marginTop: optional(into, style, 'top_m', readMargin, `${field}.style.top_m`) ?? 0,
    marginBottom: optional(into, style, 'bot_m', readMargin, `${field}.style.bot_m`) ?? 0,
  };
}

/**
 * A banner missing a valid anchor, `pos` or `type` is dropped, bad optional parts are ignored; a
 * vignette or side rail is kept as it is, for its part to read (src/wire/auto-ads-formats.ts).
 */
const readPlacement: Read<Item> = (into, value, field) => {
  const invalid = withCode(into, 'auto-ads-placement-invalid');
  const placement = readObject(invalid, value, field);
  if (!placement) return;
  const kind = own(placement, 'type');
  if (kind === 'vignette' || kind === 'sideRail') return { type: kind, placement, field };
  const anchor = readAnchor(0)(invalid, own(placement, 'anchor'), `${field}.anchor`);
  const position = readPosition(invalid, own(placement, 'pos'), `${field}.pos`);
  const type = readBanner(invalid, own(placement, 'type'), `${field}.type`);
  if (!anchor || !position || type === undefined) return;
  const attributes = optional(into, placement, 'attributes', readAttributes, `${field}.attributes`) ?? {};
  return { anchor, position, ...readMargins(into, placement, field), attributes };
};

/** A JSON object gives a config (maybe with diagnostics); anything else gives none. */
export function parseAutoAdsConfig(json: unknown, defaults: Constraints): Parsed<AutoAdsConfig | undefined> {
  if (!isRecord(json))
    return { value: undefined, diagnostics: [diagnostic('auto-ads-config-invalid', 'a JSON object', json)] };
  const into = collector('auto-ads-field-invalid');
  const reason = optional(into, json, 'noConfigReason', readText(500));
  if (reason !== undefined)
    into.diagnostics.push(diagnostic('auto-ads-no-config-reason', 'a config with ads', reason, 'noConfigReason'));
  const items = readList(readPlacement, MAX_PLACEMENTS)(into, own(json, 'placements'), 'placements') ?? [];
  const value: AutoAdsConfig = {
    placements: items.filter((item): item is PlacementSpec => !isFormat(item)),
    attributes: optional(into, json, 'attributes', readAttributes) ?? {},
    constraints: readConstraints(into, own(json, 'adConstraints'), defaults),
    isAnchorAdEnabled: (optional(into, json, 'optInStatus', readList(readNumber(0, 1000))) ?? []).includes(2),
    stickyAttributes: optional(into, json, 'stickyAdAttributes', readAttributes) ?? {},
    formats: items.filter(isFormat),
    ...(own(json, 'experiment') !== undefined && { experimentSource: json }),
  };
  return { value, diagnostics: into.diagnostics };
}
