import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAdsConfigDocument } from '../../server/ads-config.ts';
import { DEFAULT_CONSTRAINTS } from '../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../src/wire/auto-ads-config.ts';
import { configArbitrary } from '../unit/wire/auto-ads-config-arbitraries.ts';

/** What the server says about a document: accepted, or the 400 message. */
function serverVerdict(document: unknown): string {
  try {
    parseAdsConfigDocument(document);
    return 'accepted';
  } catch (error) {
    return (error as Error).message;
  }
}

const isCleanForComponent = (config: unknown) =>
  parseAutoAdsConfig(config, DEFAULT_CONSTRAINTS).diagnostics.length === 0;
const documentArbitrary = fc.oneof(configArbitrary(true), configArbitrary(false));

describe('ads config strict parsing', () => {
  it('accepts exactly the configs that the component parses without diagnostics', () => {
    fc.assert(
      fc.property(documentArbitrary, (config) => {
        fc.pre(
          typeof config === 'object' &&
            config !== null &&
            !Array.isArray(config) &&
            Object.hasOwn(config, 'placements'),
        );
        expect(serverVerdict(config) === 'accepted').toBe(isCleanForComponent(config));
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts exactly the rule configs that the component parses without diagnostics', () => {
    fc.assert(
      fc.property(documentArbitrary, (config) => {
        expect(serverVerdict({ rules: [{ urlPattern: '/*', config }] }) === 'accepted').toBe(
          isCleanForComponent(config),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('names the first field the component diagnoses', () => {
    fc.assert(
      fc.property(configArbitrary(true), (config) => {
        const [first] = parseAutoAdsConfig(config, DEFAULT_CONSTRAINTS).diagnostics;
        fc.pre(first?.field !== undefined);
        expect(serverVerdict({ default: config })).toMatch(
          new RegExp(`^default\\.${first!.field!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: expected `),
        );
      }),
      { numRuns: 500 },
    );
  });
});
