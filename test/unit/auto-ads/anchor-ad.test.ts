// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { insertAnchorAd } from '../../../src/auto-ads/anchor-ad.ts';

let host: HTMLElement;

beforeEach(() => {
  document.body.innerHTML = '<page-auto-ads></page-auto-ads><p>text</p>';
  host = document.querySelector('page-auto-ads')!;
});

const sticky = () => document.querySelector<HTMLElement>('page-ad[sticky]');

describe('anchor-ad', () => {
  it('caps the anchor ad at 30% of the viewport height', () => {
    insertAnchorAd(host, { type: 'fake', height: '400' });
    expect(sticky()?.style.maxHeight).toBe('30vh');
  });

  it('has a labelled close button that removes the ad', () => {
    insertAnchorAd(host, { type: 'fake' });
    const button = sticky()!.querySelector('button')!;
    expect([button.type, button.getAttribute('aria-label')]).toEqual(['button', 'Close ad']);
    button.click();
    expect(sticky()).toBeNull();
  });

  it('labels the anchor ad region with its data-label', () => {
    insertAnchorAd(host, { type: 'fake', 'data-label': 'Sponsored' });
    expect(sticky()?.getAttribute('aria-label')).toBe('Sponsored');
  });

  it('inserts a 100 px bottom ad fixed to the viewport, right after the host', () => {
    expect(insertAnchorAd(host, { type: 'fake', 'data-a': '1' })).toBe(true);
    const ad = sticky()!;
    expect(host.nextElementSibling).toBe(ad);
    expect(
      Object.fromEntries([...ad.attributes].filter((a) => a.name !== 'style').map((a) => [a.name, a.value])),
    ).toEqual({
      layout: 'fixed-height',
      height: '100',
      type: 'fake',
      'data-a': '1',
      sticky: 'bottom',
      role: 'complementary',
      'aria-label': 'Advertisement',
    });
    expect([ad.style.position, ad.style.bottom, ad.style.left, ad.style.right, ad.style.top]).toEqual([
      'fixed',
      '0px',
      '0px',
      '0px',
      '',
    ]);
  });

  it('pins the ad to the top with sticky="top" and keeps a given height', () => {
    insertAnchorAd(host, { type: 'fake', sticky: 'top', height: '60' });
    const ad = sticky()!;
    expect([ad.getAttribute('sticky'), ad.getAttribute('height'), ad.style.top, ad.style.bottom]).toEqual([
      'top',
      '60',
      '0px',
      '',
    ]);
  });

  it('reads any other sticky value as bottom', () => {
    insertAnchorAd(host, { sticky: 'left' });
    expect(sticky()?.getAttribute('sticky')).toBe('bottom');
  });

  it.each(['<page-ad sticky="top"></page-ad>', '<page-sticky-ad><page-ad></page-ad></page-sticky-ad>'])(
    'adds nothing when the page has %s',
    (markup) => {
      document.body.insertAdjacentHTML('beforeend', markup);
      const count = document.querySelectorAll('page-ad').length;
      expect(insertAnchorAd(host, { type: 'fake' })).toBe(false);
      expect(document.querySelectorAll('page-ad')).toHaveLength(count);
    },
  );
});
