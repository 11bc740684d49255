/** The page audit's pure parts: arguments, sites, addresses, cookies, stacks and chains, the rule. */
import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../../cli/private-address.ts';
import { resolveCookie } from '../../../cli/audit/cookies.ts';
import { requestChain, stackUrls } from '../../../cli/audit/initiators.ts';
import {
  type LoggedRequest,
  MAX_REFUSED_LINE_CHARS,
  MAX_REFUSED_LINES,
  readBlockedCookies,
} from '../../../cli/audit/network-log.ts';
import { parseAuditArguments } from '../../../cli/audit/options.ts';
import { isExpected, readExpectations } from '../../../cli/audit/page-config.ts';
import { allowedBy, isThirdParty, siteOf } from '../../../cli/audit/sites.ts';
import { verdictOf } from '../../../cli/audit/verdict.ts';

describe('audit arguments', () => {
  it('reads every option, --allow in all three spellings', () => {
    const options = parseAuditArguments([
      '--audit',
      'https://a.example/',
      '--pages=2',
      '--format',
      'html',
      '--out',
      'dir',
      '--allow',
      'cdn.example',
      'fonts.example',
      '--allow=x.example,y.example',
    ]);
    expect(options).toMatchObject({
      pages: 2,
      format: 'html',
      out: 'dir',
      allow: ['cdn.example', 'fonts.example', 'x.example', 'y.example'],
    });
    expect(options?.target.href).toBe('https://a.example/');
    expect(parseAuditArguments(['--audit', 'page.html'])?.target.protocol).toBe('file:');
  });
  it('refuses other schemes, bad counts, formats and hosts', () => {
    for (const args of [
      ['--audit', 'javascript://x'],
      ['--pages', '1'],
      ['--audit', 'a.html', '--pages', '21'],
      ['--audit', 'a.html', '--format', 'csv'],
      ['--audit', 'a.html', '--allow', 'a b'],
      ['--audit', 'a.html', '--nope'],
    ]) {
      expect(parseAuditArguments(args)).toBeNull();
    }
  });
});

describe('sites', () => {
  it('draws site lines by registrable domain, private suffixes included', () => {
    expect(siteOf('https://www.news.co.uk/a')).toBe('news.co.uk');
    expect(isThirdParty('https://cdn.news.co.uk/x.js', 'news.co.uk')).toBe(false);
    expect(isThirdParty('https://other.co.uk/x.js', 'news.co.uk')).toBe(true);
    expect(siteOf('https://alice.github.io/')).not.toBe(siteOf('https://bob.github.io/'));
    expect(
      new Set([
        siteOf('http://127.0.0.1:8080/'),
        siteOf('http://localhost:8080/'),
        siteOf('http://cdn.localhost:8080/'),
      ]).size,
    ).toBe(3);
    expect(siteOf('file:///tmp/a.html')).toBe('file:');
    expect(siteOf('data:text/plain,x')).toBeNull();
  });
  it('lets an --allow host cover itself and its subdomains only', () => {
    expect(allowedBy('https://fonts.gstatic.com/a.woff2', ['gstatic.com'])).toBe('gstatic.com');
    expect(allowedBy('https://evilgstatic.com/a.woff2', ['gstatic.com'])).toBeUndefined();
  });
});

it('knows loopback and private addresses, IPv4-mapped ones included', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fd00::1',
    '::ffff:10.0.0.1',
  ])
    expect(isPrivateAddress(address)).toBe(true);
  for (const address of ['8.8.8.8', '2001:4860::8888', '172.32.0.1']) expect(isPrivateAddress(address)).toBe(false);
});

describe('cookies', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('takes domain and expiry from the browser jar, and tells deletions apart', () => {
    const jar = [
      {
        name: 'id',
        value: '1',
        domain: '.news.example',
        path: '/',
        expires: now / 1000 + 3600,
        httpOnly: false,
        secure: false,
        sameSite: 'Lax' as const,
      },
    ];
    expect(resolveCookie('id=1; Max-Age=3600; Domain=news.example', 'www.news.example', jar, now)).toMatchObject({
      domain: '.news.example',
      isPersistent: true,
      isDeletion: false,
    });
    expect(resolveCookie('s=1', 'news.example', [], now)).toMatchObject({ isPersistent: false, expires: null });
    expect(resolveCookie('id=; expires=Thu, 01 Jan 1970 00:00:00 GMT', 'news.example', jar, now)?.isDeletion).toBe(
      true,
    );
  });
});

describe('refused Set-Cookie lines', () => {
  it("reads Chromium's blocked lines with their reasons, leaving out entries of another shape", () => {
    const { lines, refused } = readBlockedCookies([
      { cookieLine: 'a=1; SameSite=None', blockedReasons: ['SameSiteNoneInsecure'], cookie: { name: 'a' } },
      { cookieLine: 'b=1; Secure', blockedReasons: ['SecureOnly', 7, 'UserPreferences'] },
      { cookieLine: 'c=1' },
      { blockedReasons: ['SecureOnly'] },
      'd=1',
      null,
    ]);
    expect(refused).toEqual([
      { line: 'a=1; SameSite=None', reasons: ['SameSiteNoneInsecure'] },
      { line: 'b=1; Secure', reasons: ['SecureOnly', 'UserPreferences'] },
    ]);
    expect([...lines]).toEqual(['a=1; SameSite=None', 'b=1; Secure']);
    for (const value of [undefined, null, {}, 'x']) expect(readBlockedCookies(value).refused).toEqual([]);
  });
  it('keeps a bounded number of bounded lines, and knows every blocked line', () => {
    const long = `x=${'v'.repeat(MAX_REFUSED_LINE_CHARS * 2)}`;
    const entries = Array.from({ length: MAX_REFUSED_LINES + 5 }, (_, index) => ({
      cookieLine: index === 0 ? long : `n${index}=1`,
      blockedReasons: ['SecureOnly'],
    }));
    const { lines, refused } = readBlockedCookies(entries);
    expect(refused).toHaveLength(MAX_REFUSED_LINES);
    expect(refused[0]?.line).toHaveLength(MAX_REFUSED_LINE_CHARS);
    expect(lines.size).toBe(MAX_REFUSED_LINES + 5);
    expect(lines.has(long)).toBe(true);
  });
});

describe('initiators', () => {
  const request = (
    url: string,
    initiator: string[],
    type = 'script',
    documentUrl = 'https://site.example/',
  ): LoggedRequest => ({
    id: url,
    url,
    method: 'GET',
    type: 'Script',
    time: 0,
    documentUrl,
    initiator: { type, urls: initiator },
    setCookies: [],
    refusedCookies: [],
  });
  it('reads the writing script from a stack, skipping the recorder', () => {
    const stack =
      'Error\n    at set (page-audit-recorder.js:10:5)\n    at https://t.example/a.js:1:20\n    at eval (eval at run (https://t.example/b.js:3:4), <anonymous>:1:1)';
    expect(stackUrls(stack)).toEqual(['https://t.example/a.js', 'https://t.example/b.js']);
  });
  it('follows what loaded each link up to the page', () => {
    const requests = [
      request('https://site.example/', [], 'other'),
      request('https://t.example/gtm.js', ['https://site.example/'], 'parser'),
      request('https://t.example/a.js', ['https://t.example/gtm.js']),
    ];
    const pixel = request('https://t.example/p.gif', ['https://t.example/a.js', 'https://t.example/gtm.js']);
    expect(requestChain(pixel, requests)).toEqual([
      'https://t.example/a.js',
      'https://t.example/gtm.js',
      'https://site.example/',
    ]);
  });
});

it('expects the config endpoints and the component folder, read with the consent parser', () => {
  const html = `<script async src="https://cdn.example/v0.js"></script><page-consent id="c" layout="nodisplay" type="page-hosted"><script type="application/json">{"consentInstanceId":"x","checkConsentHref":"https://consent.example/consent/check"}</script></page-consent>`;
  const expectations = readExpectations(html, 'https://news.example/');
  expect(expectations.consentId).toBe('c');
  for (const url of [
    'https://consent.example/consent/check?x=1',
    'https://consent.example/consent/update',
    'https://consent.example/cmp/prompt.html',
    'https://cdn.example/v0/page-consent-0.1.js',
  ])
    expect(isExpected(url, expectations)).toBe(true);
  expect(isExpected('https://cdn.example/other.js', expectations)).toBe(false);
});

it('judges by phase and journey', () => {
  const base = {
    journey: 'reject' as const,
    phase: 'after' as const,
    isThirdParty: true,
    isExpected: false,
    allowedBy: undefined,
    isPermittedAfterReject: false,
  };
  expect(verdictOf(base)).toBe('finding');
  expect(verdictOf({ ...base, isPermittedAfterReject: true })).toBe('permitted');
  expect(verdictOf({ ...base, journey: 'accept' })).toBe('ok');
  expect(verdictOf({ ...base, journey: 'accept', phase: 'before' })).toBe('finding');
  expect(verdictOf({ ...base, allowedBy: 'cdn.example' })).toBe('allowed');
  expect(verdictOf({ ...base, isExpected: true })).toBe('expected');
  expect(verdictOf({ ...base, isThirdParty: false })).toBe('ok');
});
