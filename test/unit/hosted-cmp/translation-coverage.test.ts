import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstUntranslated, isCompleteTranslation } from '../../../src/hosted-cmp/translation-coverage.ts';
import { parseTranslation } from '../../../src/wire/gvl-translation.ts';
import { parseGvl } from '../../../src/wire/gvl.ts';

const gvl = parseGvl(JSON.parse(readFileSync(resolve('fixtures/tcf/vendor-list.json'), 'utf8'))).value!;
const german = parseTranslation(JSON.parse(readFileSync(resolve('fixtures/tcf/translations/purposes-de.json'), 'utf8')))
  .value!;

describe('translation-coverage', () => {
  it('finds a translation complete when it names and describes every entry of every section', () => {
    expect(firstUntranslated(gvl, german)).toBeNull();
    expect(isCompleteTranslation(gvl, german)).toBe(true);
  });

  it('names the first entry left in English: missing, without a name, or without the description the GVL has', () => {
    const { stacks, ...withoutStacks } = german;
    expect(firstUntranslated(gvl, withoutStacks)).toBe('stacks.1');
    const undescribed = { ...german, features: { ...german.features, 2: { id: 2, name: 'Geräte verknüpfen' } } };
    expect(firstUntranslated(gvl, undescribed)).toBe('features.2');
    expect(stacks).toBeDefined();
  });

  it('finds no translation incomplete', () => {
    expect(isCompleteTranslation(gvl, null)).toBe(false);
  });
});
