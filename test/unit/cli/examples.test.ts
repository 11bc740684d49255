import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';

const pages = readdirSync('examples').filter((name) => name.endsWith('.html'));
const readmePage = /```html\n([\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))?.[1] ?? '';

describe('the validator on our own pages', () => {
  it.each(pages)('finds nothing in examples/%s', (name) => {
    expect(validatePage(readFileSync(`examples/${name}`, 'utf8'), `http://localhost:8080/examples/${name}`)).toEqual(
      [],
    );
  });

  it("finds nothing in the README's complete page", () => {
    expect(readmePage).toContain('<page-consent');
    expect(validatePage(readmePage, 'http://localhost:8080/')).toEqual([]);
  });
});
