// @vitest-environment node
/**
 * The decision records explain themselves from one place: every record in docs/decisions/ has
 * a row in its index (docs/decisions/README.md), and every row names a record that exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('../../../docs/decisions/', import.meta.url);
const records = readdirSync(DIR)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .sort();
const linked = [...readFileSync(new URL('README.md', DIR), 'utf8').matchAll(/^\| \[[^\]]+\]\(([^)]+\.md)\)/gm)]
  .map((match) => match[1])
  .sort();

describe('the decision index', () => {
  it('lists every record once, and nothing else', () => {
    expect(linked).toEqual(records);
  });
});
