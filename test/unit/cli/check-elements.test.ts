import { describe, expect, it } from 'vitest';
import { codesOf } from './codes.ts';
import { breakPage } from './pages.ts';

const IMG = '<page-img src="/photo.jpg" layout="responsive" width="16" height="9" alt="A photo"></page-img>';
const withImg = (markup: string) => breakPage(IMG, markup);

describe('checkElements', () => {
  it('reports layout and size problems through parseLayout', () => {
    expect(codesOf(withImg('<page-img src="/a.jpg" layout="stretchy" width="1" height="1"></page-img>'))).toEqual([
      'invalid-layout@error',
    ]);
    expect(codesOf(withImg('<page-img src="/a.jpg" width="50%" height="10"></page-img>'))).toEqual([
      'invalid-size@error',
    ]);
    expect(codesOf(withImg('<page-iframe src="/a" layout="responsive" width="16"></page-iframe>'))).toEqual([
      'missing-size@error',
    ]);
  });

  it('refuses URLs that are neither http(s) nor relative', () => {
    expect(codesOf(withImg('<page-pixel src="javascript:alert(1)"></page-pixel>'))).toEqual(['url-refused@error']);
    expect(codesOf(breakPage('data-src="https://ads.example/', 'data-src="blob:https://ads.example/'))).toEqual([
      'url-refused@error',
    ]);
  });

  it('accepts relative URLs against the page URL', () => {
    expect(
      codesOf(
        withImg(
          '<page-pixel src="//stats.example/hit"></page-pixel><page-img src="../a.jpg" layout="fill"></page-img>',
        ),
      ),
    ).toEqual([]);
  });
});
