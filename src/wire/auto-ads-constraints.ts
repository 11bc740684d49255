/**
 * `adConstraints` of an auto-ads config (docs/auto-ads.md, "Config format" (adConstraints)): all or nothing.
 * Any invalid part discards the whole object for the network's defaults, with one
 * `auto-ads-constraints-invalid` naming the first bad value.
 */
import {
  collector,
  type Collector,
  type Json,
  optional,
  own,
  type Read,
  readList,
  readNumber,
  readObject,
  readText,
} from './values.ts';

/** A length with the units of docs/auto-ads.md, "Config format": `px`, or `vp` (multiples of the viewport height). */
export type Spacing = { readonly value: number; readonly unit: 'px' | 'vp' };

export type SpacingRule = { readonly adCount: number; readonly spacing: Spacing };

export type Constraints = {
  readonly initialMinimumSpacing: Spacing;
  /** Sorted by `adCount`, ascending. */
  readonly subsequentMinimumSpacing: readonly SpacingRule[];
  readonly maximumAdCount: number;
};

/** A decimal number as CSS writes it (`2`, `1.5`, `.5`), no sign or exponent, then the unit. */
const SPACING = /^(\d+(?:\.\d+)?|\.\d+)(px|vp)$/;
const MAX_ADS = 1000;
const readCount = readNumber(0, MAX_ADS);
const readSpacingText = readText(20, 2, SPACING, 'a length such as 300px or 1.5vp (no sign)');

/** `"500px"`, `"1.5vp"`, `".5vp"`; negative, unit-less or other units give undefined. */
export function parseSpacing(text: unknown): Spacing | undefined {
  const match = typeof text === 'string' ? SPACING.exec(text) : null;
  return match ? { value: Number(match[1]), unit: match[2] as Spacing['unit'] } : undefined;
}

export const readSpacing: Read<Spacing> = (into, value, field) => {
  const text = readSpacingText(into, value, field);
  return text === undefined ? undefined : parseSpacing(text);
};

const readRule: Read<SpacingRule> = (into, value, field) => {
  const rule = readObject(into, value, field);
  if (!rule) return;
  const adCount = readCount(into, own(rule, 'adCount'), `${field}.adCount`);
  const spacing = readSpacing(into, own(rule, 'spacing'), `${field}.spacing`);
  return adCount === undefined || !spacing ? undefined : { adCount, spacing };
};

function readParts(into: Collector, constraints: Json, field: string): Constraints | undefined {
  const initial = readSpacing(into, own(constraints, 'initialMinSpacing'), `${field}.initialMinSpacing`);
  const rules =
    optional(into, constraints, 'subsequentMinSpacing', readList(readRule), `${field}.subsequentMinSpacing`) ?? [];
  const maximum = readCount(into, own(constraints, 'maxAdCount'), `${field}.maxAdCount`);
  if (!initial || maximum === undefined) return;
  const sorted = [...rules].sort((a, b) => a.adCount - b.adCount);
  return { initialMinimumSpacing: initial, subsequentMinimumSpacing: sorted, maximumAdCount: maximum };
}

/** Absent (or null): the defaults. Invalid in any part: the defaults and one diagnostic. */
export function readConstraints(
  into: Collector,
  value: unknown,
  defaults: Constraints,
  field = 'adConstraints',
): Constraints {
  if (value === undefined || value === null) return defaults;
  const scratch = collector('auto-ads-constraints-invalid');
  const constraints = readObject(scratch, value, field);
  const parsed = constraints && readParts(scratch, constraints, field);
  const [first] = scratch.diagnostics;
  if (first) into.diagnostics.push(first);
  return first || !parsed ? defaults : parsed;
}

const vp = (value: number) => ({ value, unit: 'vp' }) as const;

/** The same defaults for every network (docs/auto-ads.md); the registry and the server's configs use them. */
export const DEFAULT_CONSTRAINTS: Constraints = {
  initialMinimumSpacing: vp(1),
  subsequentMinimumSpacing: [
    { adCount: 3, spacing: vp(2) },
    { adCount: 6, spacing: vp(3) },
  ],
  maximumAdCount: 8,
};
