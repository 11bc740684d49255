/**
 * Parses the served ConfigObj (wire names of the seed, see src/protocol.ts) into typed,
 * readable data. Pure: every problem becomes a diagnostic and the rest of the config is kept.
 */
import type { AutoAdsConfigWire } from '../protocol.ts';
import type { Diagnostic, Parsed } from '../runtime/index.ts';
import { type Attributes, isObject, parseAttributes } from './attributes.ts';
import { diagnostic } from './diagnostic.ts';
import { type Constraints, parseSpacing, type SpacingRule } from './spacing.ts';

/** `pos` 1-4 of the seed. */
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
};

type Wire = Partial<Record<keyof AutoAdsConfigWire, unknown>>;

const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

export function parseAutoAdsConfig(wire: unknown, defaults: Constraints): Parsed<AutoAdsConfig | undefined> {
  if (!isObject(wire)) return { value: undefined, diagnostics: [diagnostic('auto-ads-config-invalid', 'a JSON object', wire)] };
  const config: Wire = wire;
  const problems: Diagnostic[] = [];
  if (typeof config.noConfigReason === 'string') {
    problems.push(diagnostic('auto-ads-no-config-reason', 'a config with ads', config.noConfigReason));
  }
  const optIn = config.optInStatus ?? [];
  if (!Array.isArray(optIn)) problems.push(diagnostic('auto-ads-field-invalid', 'optInStatus as an array', optIn));
  const value: AutoAdsConfig = {
    placements: parsePlacements(config.placements, problems),
    attributes: parseAttributes(config.attributes, 'attributes', problems),
    constraints: parseConstraints(config.adConstraints, defaults, problems),
    isAnchorAdEnabled: Array.isArray(optIn) && optIn.includes(2),
    stickyAttributes: parseAttributes(config.stickyAdAttributes, 'stickyAdAttributes', problems),
  };
  return { value, diagnostics: problems };
}

function parsePlacements(wire: unknown, problems: Diagnostic[]): PlacementSpec[] {
  if (Array.isArray(wire)) return wire.flatMap((item, index) => parsePlacement(item, `placements[${index}]`, problems) ?? []);
  problems.push(diagnostic('auto-ads-field-invalid', 'placements as an array', wire));
  return [];
}

function parsePlacement(wire: unknown, path: string, problems: Diagnostic[]): PlacementSpec | undefined {
  const invalid = (expected: string, got: unknown): undefined => {
    problems.push(diagnostic('auto-ads-placement-invalid', expected, got));
  };
  if (!isObject(wire)) return invalid(`${path} as an object`, wire);
  const position = typeof wire.pos === 'number' ? POSITIONS[wire.pos - 1] : undefined;
  if (!position) return invalid(`${path}.pos 1-4`, wire.pos);
  if (wire.type !== 1) return invalid(`${path}.type 1 (BANNER)`, wire.type);
  const anchor = parseAnchor(wire.anchor, `${path}.anchor`, invalid);
  if (!anchor) return;
  const style = isObject(wire.style) ? wire.style : {};
  const margin = (name: 'top_m' | 'bot_m') => {
    const value = style[name] ?? 0;
    if (typeof value === 'number' && value >= 0) return value;
    problems.push(diagnostic('auto-ads-field-invalid', `${path}.style.${name} as a number >= 0`, value));
    return 0;
  };
  const attributes = parseAttributes(wire.attributes, `${path}.attributes`, problems);
  return { anchor, position, marginTop: margin('top_m'), marginBottom: margin('bot_m'), attributes };
}

function parseAnchor(wire: unknown, path: string, invalid: (expected: string, got: unknown) => undefined): AnchorSpec | undefined {
  if (!isObject(wire)) return invalid(`${path} as an object`, wire);
  const { selector, index, all, min_c: minimum, sub } = wire;
  if (typeof selector !== 'string' || !selector.trim()) return invalid(`${path}.selector as a CSS selector`, selector);
  if (index !== undefined && !isCount(index)) return invalid(`${path}.index as a whole number >= 0`, index);
  if (all !== undefined && typeof all !== 'boolean') return invalid(`${path}.all as true or false`, all);
  if (minimum !== undefined && !(typeof minimum === 'number' && minimum >= 0)) return invalid(`${path}.min_c as a number >= 0`, minimum);
  const subAnchor = sub === undefined ? undefined : parseAnchor(sub, `${path}.sub`, invalid);
  if (sub !== undefined && !subAnchor) return;
  return { selector, index: index as number | undefined, isAll: all === true, minimumTextLength: (minimum as number | undefined) ?? 0, sub: subAnchor };
}

/** Absent: the network defaults. Invalid in any part: the network defaults and a diagnostic. */
export function parseConstraints(wire: unknown, defaults: Constraints, problems: Diagnostic[]): Constraints {
  if (wire === undefined) return defaults;
  const [expected, got] = findConstraintsProblem(wire);
  if (!expected) return readConstraints(wire as Record<string, unknown>);
  problems.push(diagnostic('auto-ads-constraints-invalid', `${expected} (network defaults used)`, got));
  return defaults;
}

function findConstraintsProblem(wire: unknown): [string, unknown] | [] {
  if (!isObject(wire)) return ['adConstraints as an object', wire];
  if (!parseSpacing(wire.initialMinSpacing)) return ['initialMinSpacing as a length in px or vp', wire.initialMinSpacing];
  if (!isCount(wire.maxAdCount)) return ['maxAdCount as a whole number >= 0', wire.maxAdCount];
  const rules = wire.subsequentMinSpacing ?? [];
  if (!Array.isArray(rules)) return ['subsequentMinSpacing as an array', rules];
  for (const rule of rules) {
    if (!isObject(rule) || !isCount(rule.adCount)) return ['subsequentMinSpacing[].adCount as a whole number >= 0', rule];
    if (!parseSpacing(rule.spacing)) return ['subsequentMinSpacing[].spacing as a length in px or vp', rule.spacing];
  }
  return [];
}

function readConstraints(wire: Record<string, unknown>): Constraints {
  const rules = (wire.subsequentMinSpacing ?? []) as { adCount: number; spacing: string }[];
  const subsequent: SpacingRule[] = rules.map((rule) => ({ adCount: rule.adCount, spacing: parseSpacing(rule.spacing)! }));
  return {
    initialMinimumSpacing: parseSpacing(wire.initialMinSpacing)!,
    subsequentMinimumSpacing: subsequent.sort((a, b) => a.adCount - b.adCount),
    maximumAdCount: wire.maxAdCount as number,
  };
}
