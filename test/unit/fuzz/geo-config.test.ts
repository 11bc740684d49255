// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { PRESETS, parseGeoConfig } from '../../../src/wire/geo-groups.ts';
import { isSubdivision } from '../../../src/wire/geo-subdivisions.ts';
import {
  deep,
  expectCodedDiagnostics,
  expectPlainValue,
  fuzz,
  jsonishValue,
  PROTOTYPE_KEYS,
  record,
  shaped,
} from './harness.ts';

const NAMES = ['ISOCountryGroups', 'eea', 'us', 'Group2', 'toString', 'valueOf'];
const code = fc.oneof(
  fc.constantFrom(
    'de',
    'DE',
    'us',
    'unknown',
    'UNKNOWN',
    'preset-eea',
    'PRESET-US-CA',
    'preset-us-privacy-states',
    'US-CA',
    'us-zz',
    'ca-qc',
    'hasownproperty',
    ...PROTOTYPE_KEYS,
    ['de'],
    [['fr']],
  ),
  shaped(NAMES),
);
const groups = fc.dictionary(
  fc.oneof(fc.constantFrom('eea', 'us', 'g1', '1x', 'a-b', ...PROTOTYPE_KEYS), fc.string()),
  fc.oneof(fc.array(code, { maxLength: 6 }), shaped(NAMES)),
  { maxKeys: 5 },
);
const input = fc.oneof(
  { weight: 6, arbitrary: record({ ISOCountryGroups: groups }, NAMES) },
  jsonishValue,
  shaped(NAMES),
  deep(record({ ISOCountryGroups: groups }, NAMES), NAMES),
);

describe('fuzz: geo config (parseGeoConfig)', () => {
  fuzz('geo config', input, (json) => {
    const { value, diagnostics } = parseGeoConfig(json);
    expectCodedDiagnostics(diagnostics);
    expectPlainValue(value);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    const given = (json as { ISOCountryGroups?: object } | null)?.ISOCountryGroups;
    for (const [name, countries] of Object.entries(value)) {
      expect(Object.hasOwn(given as object, name)).toBe(true);
      expect(name).toMatch(/^[a-z][a-z0-9]*$/i);
      // A group lists country codes, known subdivisions and own presets only: never a function or object reached by an inherited name.
      for (const country of countries)
        expect(/^([a-z]{2}|unknown)$/.test(country) || isSubdivision(country) || Object.hasOwn(PRESETS, country)).toBe(
          true,
        );
    }
  });
});
