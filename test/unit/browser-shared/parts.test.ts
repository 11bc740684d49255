// @vitest-environment happy-dom
/**
 * The parts loader (src/browser-shared/parts.ts): a bundle names its parts' files from the
 * defines the build gives it (scripts/part-names.mjs), `{prefix}{part}.{hash}`, and a part
 * registers its exports under that name up to its first dot.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { definePart, loadPart, partFile } from '../../../src/browser-shared/parts.ts';

const scope = globalThis as unknown as {
  PART_PREFIX?: string;
  PART_HASH?: string;
  PART_NAMES?: string;
  PAGE_PARTS?: Record<string, unknown>;
};

beforeEach(() => {
  scope.PART_PREFIX = 'page-consent-';
  scope.PART_HASH = 'geo12';
  scope.PART_NAMES = 'stored,geo';
});
afterEach(() => {
  delete scope.PART_PREFIX;
  delete scope.PART_HASH;
  delete scope.PART_NAMES;
  delete scope.PAGE_PARTS;
  document.head.replaceChildren();
});

describe('partFile', () => {
  it('names each part after the content of the parts of its bundle, with the prefix of the bundle that loads it', () => {
    expect(partFile('stored')).toBe('page-consent-stored.geo12');
    expect(partFile('geo')).toBe('page-consent-geo.geo12');
  });

  it('refuses, in development, a part the bundle was not built to load', () => {
    expect(() => partFile('state')).toThrow('part state is not one this bundle was built to load');
  });
});

describe('loadPart', () => {
  it('requests nothing for a part on the page already (registered under its name), and resolves with its exports', async () => {
    const exports = { parseStoredConsent: () => null };
    definePart('page-consent-stored', exports);
    expect(await loadPart(partFile('stored'), 'https://cdn.example/v0/page-consent-0.1.js', () => {})).toBe(exports);
    expect(document.head.querySelector('script')).toBeNull();
  });
});
