// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';
import { configArbitrary } from '../wire/auto-ads-config-arbitraries.ts';
import {
  deep,
  edgeNumber,
  expectCodedDiagnostics,
  expectPlainValue,
  expectTrueOnlyFromLiteralTrue,
  fuzz,
  jsonishValue,
  oddString,
  record,
  shaped,
} from './harness.ts';

const NAMES = [
  'placements',
  'anchor',
  'selector',
  'index',
  'all',
  'min_c',
  'sub',
  'pos',
  'type',
  'style',
  'top_m',
  'bot_m',
  'attributes',
  'adConstraints',
  'initialMinSpacing',
  'subsequentMinSpacing',
  'adCount',
  'spacing',
  'maxAdCount',
  'optInStatus',
  'stickyAdAttributes',
  'noConfigReason',
  'data-src',
  'data-block-on-consent',
  'layout',
  'height',
  'data-x-url',
];
const attributes = fc.dictionary(
  fc.constantFrom(
    'type',
    'layout',
    'data-src',
    'data-ad-url',
    'data-block-on-consent',
    'onclick',
    'Data-X',
    '__proto__',
  ),
  fc.oneof(
    oddString,
    edgeNumber,
    fc.boolean(),
    fc.constantFrom('javascript:x', 'https://ads.example/c', '/c', 'data:,x'),
    shaped(NAMES),
  ),
);
const anchor = fc.letrec<{ anchor: unknown }>((tie) => ({
  anchor: record(
    {
      selector: fc.constantFrom('p', 'main > p', '', ' ', 'p[', ':has(', '*'),
      index: edgeNumber,
      all: fc.constantFrom(true, 'true', 1),
      min_c: edgeNumber,
      sub: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), tie('anchor')),
    },
    NAMES,
  ),
})).anchor;
const placement = record(
  {
    anchor,
    pos: fc.oneof(fc.constantFrom(1, 2, 3, 4, 0, 5, 1.5, '1'), edgeNumber),
    type: fc.constantFrom(1, 2, '1', true),
    style: record({ top_m: edgeNumber, bot_m: edgeNumber }, NAMES),
    attributes,
  },
  NAMES,
);
const spacing = fc.constantFrom('300px', '1.5vp', '.5vp', '-1px', '1e3px', '10', '10em', '');
const constraints = record(
  {
    initialMinSpacing: spacing,
    subsequentMinSpacing: fc.array(record({ adCount: edgeNumber, spacing }, NAMES), { maxLength: 4 }),
    maxAdCount: edgeNumber,
  },
  NAMES,
);
const config = record(
  {
    placements: fc.array(placement, { maxLength: 6 }),
    attributes,
    adConstraints: constraints,
    optInStatus: fc.array(fc.oneof(fc.constantFrom(1, 2, '2', 2.5), edgeNumber), { maxLength: 4 }),
    stickyAdAttributes: attributes,
    noConfigReason: oddString,
  },
  NAMES,
);
const input = fc.oneof(
  { weight: 4, arbitrary: config },
  { weight: 2, arbitrary: configArbitrary(true) },
  jsonishValue,
  shaped(NAMES),
  deep(config, NAMES),
);

describe('fuzz: auto-ads config (parseAutoAdsConfig)', () => {
  fuzz('auto-ads config', input, (json) => {
    const { value, diagnostics } = parseAutoAdsConfig(json, DEFAULT_CONSTRAINTS);
    expectCodedDiagnostics(diagnostics);
    if (value === undefined) {
      expect(diagnostics.length).toBeGreaterThan(0);
      return;
    }
    expectPlainValue(value);
    const { maximumAdCount, subsequentMinimumSpacing } = value.constraints;
    expect(Number.isInteger(maximumAdCount) && maximumAdCount >= 0 && maximumAdCount <= 1000).toBe(true);
    for (const rule of subsequentMinimumSpacing) expect(rule.spacing.value).toBeGreaterThanOrEqual(0);
    for (const { position, anchor: spec, attributes: own } of value.placements) {
      expect(['before', 'first-child', 'last-child', 'after']).toContain(position);
      expect(spec.selector.trim().length).toBeGreaterThan(0);
      for (const [name, text] of Object.entries(own)) {
        expect(typeof text).toBe('string');
        expect(name.startsWith('data-block-on-consent')).toBe(false);
      }
    }
    for (const map of [value.attributes, value.stickyAttributes])
      for (const name of Object.keys(map))
        expect(name).toMatch(/^(type|layout|height|width|sticky|data-[a-z0-9_.-]+)$/);
    // Anchor ads need the number 2 in optInStatus, not "2" or any truthy value.
    if (value.isAnchorAdEnabled) expect((json as { optInStatus: unknown[] }).optInStatus).toContain(2);
    expectTrueOnlyFromLiteralTrue({ ...value, isAnchorAdEnabled: false }, json, { isAll: ['all'] });
  });
});
