// @vitest-environment happy-dom
/**
 * The parts loader (src/browser-shared/parts.ts): a bundle names its parts' files from the
 * defines the build gives it (scripts/part-names.mjs), `{prefix}{part}.{hash}`, and a part
 * registers its exports under that name up to its first dot.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodePartFiles } from '../../../scripts/part-names.mjs';
import { definePart, loadPart, partFile } from '../../../src/browser-shared/parts.ts';

const scope = globalThis as unknown as { PART_PREFIX?: string; PART_FILES?: string; PAGE_PARTS?: Record<string, unknown> };

beforeEach(() => {
  scope.PART_PREFIX = 'page-consent-';
  // `stored`'s hash holds the other name: the build's order still reads each hash back.
  scope.PART_FILES = encodePartFiles(
    new Map([
      ['stored', 'geo12'],
      ['geo', '34567'],
    ]),
  );
});
afterEach(() => {
  delete scope.PART_PREFIX;
  delete scope.PART_FILES;
  delete scope.PAGE_PARTS;
  document.head.replaceChildren();
});

describe('partFile', () => {
  it('names each part after its content, with the prefix of the bundle that loads it', () => {
    expect(partFile('stored')).toBe('page-consent-stored.geo12');
    expect(partFile('geo')).toBe('page-consent-geo.34567');
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
