import { describe, expect, it } from 'vitest';
import { validatePage } from '../../../cli/validate-page.ts';
import { codesOf } from './codes.ts';
import { breakPage } from './pages.ts';

describe('checkScripts', () => {
  it('requires v0.js', () => {
    expect(codesOf(breakPage(/<script async src="[^"]*v0\.js"><\/script>/, ''))).toEqual([
      'validate-runtime-missing@error',
    ]);
  });

  it('asks nothing of a page without components or blocking markers', () => {
    const page = '<!doctype html><html lang="en"><head><title>t</title></head><body><p>Text</p></body></html>';
    expect(validatePage(page, 'https://example.invalid/')).toEqual([]);
  });

  it('warns about a script that is not async', () => {
    expect(codesOf(breakPage('<script async src=', '<script src='))).toEqual(['validate-script-not-async@warning']);
  });

  it('requires the script of every extension the page uses', () => {
    expect(codesOf(breakPage(/<script async custom-element="page-geo"[^>]*><\/script>/, ''))).toEqual([
      'validate-extension-missing@error',
    ]);
  });

  it('warns about the script of an extension the page does not use', () => {
    const page = breakPage(/<page-auto-ads[^>]*><\/page-auto-ads>/, '');
    expect(codesOf(page)).toEqual(['validate-extension-unused@warning']);
  });

  it('requires version 0.1 in the extension URL', () => {
    expect(codesOf(breakPage('page-geo-0.1.js', 'page-geo-0.2.js'))).toEqual(['validate-extension-version@error']);
    expect(codesOf(breakPage('v0/page-geo-0.1.js', 'geo.js'))).toEqual(['validate-extension-version@error']);
  });
});
