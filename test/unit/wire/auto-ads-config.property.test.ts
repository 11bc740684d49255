import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';
import { isRecord } from '../../../src/wire/values.ts';
import { configArbitrary, hostileAttributes } from './auto-ads-config-arbitraries.ts';

const configLike = configArbitrary(true);

const CODES = [
  'auto-ads-config-invalid',
  'auto-ads-no-config-reason',
  'auto-ads-field-invalid',
  'auto-ads-placement-invalid',
  'auto-ads-attribute-dropped',
  'auto-ads-consent-attribute-dropped',
  'auto-ads-url-refused',
  'auto-ads-constraints-invalid',
];
const RUNS = { numRuns: 500 };
const parse = (json: unknown) => parseAutoAdsConfig(json, DEFAULT_CONSTRAINTS);

/** Distinct entries (`placements[3]`, `attributes.type`) that some diagnostic names. */
const namedEntries = (fields: readonly (string | undefined)[], pattern: RegExp) =>
  new Set(fields.flatMap((field) => pattern.exec(field ?? '')?.[0] ?? []));

describe('auto-ads-config properties', () => {
  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(configLike, fc.anything(), fc.jsonValue()), (json) => void parse(json)),
      RUNS,
    );
  });

  it('gives every diagnostic a documented code and an expected value', () => {
    fc.assert(
      fc.property(configLike, (json) => {
        for (const d of parse(json).diagnostics) {
          expect(CODES).toContain(d.code);
          expect(d.expected.length).toBeGreaterThan(0);
          if (isRecord(json)) expect(typeof d.field).toBe('string');
        }
      }),
      RUNS,
    );
  });

  it('drops no placement without a diagnostic naming it', () => {
    fc.assert(
      fc.property(configLike, (json) => {
        fc.pre(isRecord(json) && Array.isArray(json.placements));
        const { value, diagnostics } = parse(json);
        const dropped = namedEntries(
          diagnostics.filter((d) => d.code === 'auto-ads-placement-invalid').map((d) => d.field),
          /^placements\[\d+\]/,
        );
        expect((value?.placements.length ?? 0) + dropped.size).toBe((json.placements as unknown[]).length);
      }),
      RUNS,
    );
  });

  it('drops no attribute without a diagnostic naming it, and stringifies the kept ones', () => {
    fc.assert(
      fc.property(hostileAttributes, (map) => {
        const { value, diagnostics } = parse({ placements: [], attributes: map });
        const kept = value?.attributes ?? {};
        const dropped = namedEntries(
          diagnostics.map((d) => d.field),
          /^attributes\..*/,
        );
        expect(Object.keys(kept).length + dropped.size).toBe(Object.keys(map).length);
        for (const [name, text] of Object.entries(kept)) expect(text).toBe(String(map[name]));
      }),
      RUNS,
    );
  });

  it('keeps given constraints exactly when there is no constraints diagnostic', () => {
    fc.assert(
      fc.property(configLike, (json) => {
        fc.pre(isRecord(json) && json.adConstraints !== undefined && json.adConstraints !== null);
        const { value, diagnostics } = parse(json);
        const isRefused = diagnostics.some((d) => d.code === 'auto-ads-constraints-invalid');
        expect(value?.constraints === DEFAULT_CONSTRAINTS).toBe(isRefused);
      }),
      RUNS,
    );
  });

  it('parses a valid config without diagnostics and keeps all of it', () => {
    fc.assert(
      fc.property(configArbitrary(false), (json) => {
        const { value, diagnostics } = parse(json);
        expect(diagnostics).toEqual([]);
        const config = json as { placements?: unknown[]; attributes?: object; stickyAdAttributes?: object };
        expect(value?.placements).toHaveLength(config.placements?.length ?? -1);
        expect(Object.keys(value?.attributes ?? {})).toEqual(Object.keys(config.attributes ?? {}));
        expect(Object.keys(value?.stickyAttributes ?? {})).toEqual(Object.keys(config.stickyAdAttributes ?? {}));
      }),
      RUNS,
    );
  });
});
