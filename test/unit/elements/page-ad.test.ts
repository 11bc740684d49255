// @vitest-environment happy-dom
/** `<page-ad type=custom>` below the browser: its creative URL expanded by a macro the test answers. */
import { afterEach, describe, expect, it } from 'vitest';
import { createContentElement } from '../../../src/elements/content-element.ts';
import { createPageAd } from '../../../src/elements/page-ad.ts';
import { createFakePage } from '../auto-ads/fake-page.ts';

/** A custom ad whose `data-src` expands only when the test answers. */
function slowAd() {
  const page = createFakePage();
  let answer = (_url: string) => {};
  page.expandUrl = () => new Promise<string>((resolve) => (answer = resolve));
  const src = `https://ads.example/c?race=${'$'}{SLOW}`;
  document.body.innerHTML = `<page-ad type="custom" width="10" height="10" data-src="${src}"></page-ad>`;
  const element = document.querySelector<HTMLElement>('page-ad')!;
  const PageAd = createPageAd(page, createContentElement(page));
  const ad = new PageAd(element, page);
  ad.buildCallback();
  const layout = ad.layoutCallback();
  return { element, ad, layout, answer: (url: string) => answer(url) };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('page-ad', () => {
  it('shows the creative once its URL has expanded', async () => {
    const { element, layout, answer } = slowAd();
    answer('https://ads.example/c?race=x');
    await layout;
    expect(element.querySelector('iframe')?.getAttribute('src')).toBe('https://ads.example/c?race=x');
  });

  it('never shows a creative whose consent is withdrawn while its URL expands', async () => {
    const { element, ad, layout, answer } = slowAd();
    // Withdrawal unlays the element (the runtime's consent gate), here before the macro answers.
    ad.unlayoutCallback();
    answer('https://ads.example/c?race=x');
    await layout;
    expect(element.querySelector('iframe')).toBeNull();
  });
});
