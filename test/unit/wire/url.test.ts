import { describe, expect, it } from 'vitest';
import { hostOf, isLoopbackHost, parseLoadableUrl } from '../../../src/wire/url.ts';

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

  it('takes no base for an absolute URL', () => {
    expect(parseLoadableUrl('https://ads.example/c')?.href).toBe('https://ads.example/c');
    expect(parseLoadableUrl('/c')).toBeUndefined();
  });

  it.each(['localhost', '127.0.0.1', '127.8.0.1', '[::1]'])('sees %s as a loopback host', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['localhost.example', 'cdn.localhost', '128.0.0.1', '::1', '[::2]', '0.0.0.0', ''])(
    'sees %j as no loopback host',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('writes a host as the URL parser does', () => {
    expect(['LocalHost', '::1', '[::1]', '127.0.0.1'].map(hostOf)).toEqual([
      'localhost',
      '[::1]',
      '[::1]',
      '127.0.0.1',
    ]);
    expect(isLoopbackHost(hostOf('::1'))).toBe(true);
  });
});
