import { describe, expect, it } from 'vitest';
import { parseLoadableUrl } from '../../../src/wire/url.ts';

const page = 'https://news.example/story/a.html';

describe('url', () => {
  it.each([
    ['https://ads.example/c?x=1', 'https://ads.example/c?x=1'],
    ['http://ads.example/c', 'http://ads.example/c'],
    ['/pixel?a=1', 'https://news.example/pixel?a=1'],
    ['img.png', 'https://news.example/story/img.png'],
    ['//cdn.example/x.js', 'https://cdn.example/x.js'],
    ['HTTPS://ADS.EXAMPLE/c', 'https://ads.example/c'],
  ])('loads %j as %s', (href, expected) => {
    expect(parseLoadableUrl(href, page)?.href).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    '\u0000javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'blob:https://news.example/1234',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'ftp://files.example/a',
    'about:blank',
    'http://[bad',
  ])('refuses %j', (href) => {
    expect(parseLoadableUrl(href, page)).toBeUndefined();
  });

  it('refuses a relative URL that resolves to another scheme', () => {
    expect(parseLoadableUrl('img.png', 'file:///home/me/page.html')).toBeUndefined();
    expect(parseLoadableUrl('x', 'about:blank')).toBeUndefined();
  });
});
