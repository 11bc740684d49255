import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  loadAdsConfigDir,
  matchesUrlPattern,
  parseAdsConfigDocument,
  selectAdsConfig,
} from '../../server/ads-config.ts';
import { ConfigError } from '../../server/errors.ts';
import type { PlacementWire } from '../../src/wire/protocol.ts';
import { bearer, buildApp, json } from './app-harness.ts';

const placement = { anchor: { selector: 'article p' }, pos: 4, type: 1 };
const config = (selector: string) => ({ placements: [{ ...placement, anchor: { selector } }] });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'page-ads-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('ads-config', () => {
  it('loads the shipped demo config', () => {
    const documents = loadAdsConfigDir('ads-config');
    const demo = documents.get('demo')!;
    const article = selectAdsConfig(demo, 'http://localhost:8080/examples/auto-ads.html');
    expect((article.placements[0] as PlacementWire | undefined)?.anchor.selector).toBe('article p');
    expect(article.adConstraints?.maxAdCount).toBeGreaterThan(0);
  });

  it('treats a missing folder as empty', () => {
    expect(loadAdsConfigDir(join(tmpdir(), 'page-no-such-folder')).size).toBe(0);
  });

  it.each([
    ['placements missing', {}, 'document: expected a ConfigObj with placements, or {rules, default}'],
    [
      'bad pos',
      { placements: [{ ...placement, pos: 5 }] },
      'config.placements[0].pos: expected 1 (BEFORE), 2 (FIRST_CHILD), 3 (LAST_CHILD) or 4 (AFTER), got 5',
    ],
    ['string pos', { placements: [{ ...placement, pos: '4' }] }, 'config.placements[0].pos'],
    [
      'bad type',
      { placements: [{ ...placement, type: 2 }] },
      'config.placements[0].type: expected 1 (BANNER), "vignette" or "sideRail", got 2',
    ],
    [
      'no selector',
      { placements: [{ ...placement, anchor: {} }] },
      'config.placements[0].anchor.selector: expected a CSS selector',
    ],
    [
      'negative index',
      { placements: [{ ...placement, anchor: { selector: 'p', index: -1 } }] },
      'anchor.index: expected an integer',
    ],
    [
      'bad sub',
      { placements: [{ ...placement, anchor: { selector: 'p', sub: { selector: 'a', all: 1 } } }] },
      'anchor.sub.all: expected true or false',
    ],
    [
      'negative margin',
      { placements: [{ ...placement, style: { top_m: -4 } }] },
      'config.placements[0].style.top_m: expected a number from 0 to 10000, got -4',
    ],
    [
      'bad attribute',
      { placements: [placement], attributes: { onclick: 'x' } },
      'config.attributes.onclick: expected a name type, layout, height, width, sticky or data-* (lowercase), got "onclick"',
    ],
    [
      'a consent marker',
      { placements: [placement], attributes: { 'data-block-on-consent': '_till_responded' } },
      'config.attributes.data-block-on-consent: expected no consent marker',
    ],
    [
      'a script URL',
      { placements: [placement], attributes: { type: 'custom', 'data-src': 'javascript:alert(1)' } },
      'config.attributes.data-src: expected an http(s) or relative URL, got "javascript:alert(1)"',
    ],
    [
      'unit-less spacing',
      { placements: [], adConstraints: { initialMinSpacing: '10', maxAdCount: 3 } },
      'config.adConstraints.initialMinSpacing: expected a length such as 300px or 1.5vp',
    ],
    [
      'missing maxAdCount',
      { placements: [], adConstraints: { initialMinSpacing: '1vp' } },
      'config.adConstraints.maxAdCount: expected an integer',
    ],
    [
      'a noConfigReason',
      { placements: [], noConfigReason: 'off' },
      'config.noConfigReason: expected a config with ads, got "off"',
    ],
    ['bad rule', { rules: [{ urlPattern: '/a*', config: {} }] }, 'rules[0].config.placements: expected an array'],
    [
      'bad default',
      { default: { placements: [{ ...placement, pos: 0 }] } },
      'default.placements[0].pos: expected 1 (BEFORE)',
    ],
    [
      'a vignette with a bad interval',
      { placements: [placement, { type: 'vignette', intervalSeconds: -5 }] },
      'config.placements[1].intervalSeconds: expected an integer from 0 to 604800, got -5',
    ],
    [
      'a side rail with a bad width',
      { placements: [{ type: 'sideRail', width: 728 }] },
      'config.placements[0].width: expected 160 or 300, got 728',
    ],
    [
      'a config that is not an object',
      { rules: [{ urlPattern: '/a*', config: [] }] },
      'rules[0].config: expected a JSON object, got []',
    ],
  ])('refuses a document with %s, naming the field', (_name, document, message) => {
    expect(() => parseAdsConfigDocument(document)).toThrow(message);
  });

  it('accepts what the component accepts: .5vp spacings, a fractional min_c, sizes in any attribute map', () => {
    const config = {
      placements: [
        { ...placement, anchor: { selector: 'p', min_c: 2.5 }, attributes: { height: 280, 'data-slot': 'mid' } },
      ],
      attributes: { type: 'fake', height: '50', width: '300' },
      adConstraints: { initialMinSpacing: '.5vp', maxAdCount: 3 },
      stickyAdAttributes: { type: 'fake', height: '50', sticky: 'bottom' },
    };
    expect(parseAdsConfigDocument(config).default).toEqual(config);
  });

  it('accepts and serves vignette and side rail placements as they are', () => {
    const config = {
      placements: [
        placement,
        { type: 'vignette', intervalSeconds: 600, tabReturnSeconds: 30, articleEnd: true, timeoutMs: 2000 },
        { type: 'sideRail', sides: 'left', width: 160, attributes: { 'data-slot': 'rail' } },
      ],
    };
    expect(parseAdsConfigDocument(config).default).toEqual(config);
  });

  it('accepts 10 nested sub anchors and refuses 11', () => {
    const nested = (depth: number): Record<string, unknown> =>
      depth === 0 ? { selector: 'p' } : { selector: 'div', sub: nested(depth - 1) };
    expect(() => parseAdsConfigDocument({ placements: [{ ...placement, anchor: nested(10) }] })).not.toThrow();
    expect(() => parseAdsConfigDocument({ placements: [{ ...placement, anchor: nested(11) }] })).toThrow(
      'config.placements[0].anchor.sub.sub.sub.sub.sub.sub.sub.sub.sub.sub.sub: expected no deeper than 10 sub anchors',
    );
  });

  it('refuses to load an invalid file with a ConfigError naming file and field', () => {
    const dir = folder({ 'shop.json': JSON.stringify({ placements: [{ ...placement, pos: 9 }] }) });
    expect(() => loadAdsConfigDir(dir)).toThrow(ConfigError);
    expect(() => loadAdsConfigDir(dir)).toThrow(
      `ads-config-invalid: ${join(dir, 'shop.json')}: config.placements[0].pos`,
    );
  });

  it('refuses to load a file that is not JSON', () => {
    const dir = folder({ 'shop.json': '{placements' });
    expect(() => loadAdsConfigDir(dir)).toThrow(/ads-config-invalid: .*shop\.json: .*JSON/);
  });

  it('refuses a file name that is not a client id', () => {
    const dir = folder({ 'my shop.json': JSON.stringify(config('p')) });
    expect(() => loadAdsConfigDir(dir)).toThrow(/file name must be <client id>\.json/);
  });

  it('matches path patterns on the path and full patterns on the URL', () => {
    const url = new URL('https://news.example/sport/story.html?x=1#top');
    const matches = (urlPattern: string, pageUrl: URL, raw: string) =>
      matchesUrlPattern({ urlPattern, config: { placements: [] } }, pageUrl, raw);
    expect(matches('/sport/*', url, url.href)).toBe(true);
    expect(matches('/news/*', url, url.href)).toBe(false);
    expect(matches('https://news.example/*.html?x=1', url, url.href)).toBe(true);
    expect(matches('https://other.example/*', url, url.href)).toBe(false);
    expect(matches('/a.b', new URL('https://x/axb'), '')).toBe(false);
  });

  it('picks the first matching rule, then the default, then an empty config', () => {
    const document = parseAdsConfigDocument({
      rules: [
        { urlPattern: '/sport/*', config: config('.sport p') },
        { urlPattern: '/*', config: config('.any p') },
      ],
    });
    expect(
      (selectAdsConfig(document, 'https://n.example/sport/a')?.placements[0] as PlacementWire | undefined)?.anchor
        .selector,
    ).toBe('.sport p');
    expect((selectAdsConfig(document, '/news/a')?.placements[0] as PlacementWire | undefined)?.anchor.selector).toBe(
      '.any p',
    );
    expect(selectAdsConfig(document, null)).toEqual({ placements: [], noConfigReason: 'no rule matches this url' });
  });
});

describe('ads config routes', () => {
  it('answers the ConfigObj of a file client', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/ads/config?client=demo&url=https%3A%2F%2Fnews.example%2Fa' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.json()).toEqual({ placements: [placement] });
  });

  it('answers a client stored in the database', async () => {
    const { app, store } = await buildApp();
    await store.putAdsConfig('shop', { rules: [{ urlPattern: '/shop/*', config: config('.product') }] }, 1);
    const response = await app.inject({ url: '/ads/config?client=shop&url=/shop/item' });
    expect(response.json().placements[0].anchor.selector).toBe('.product');
  });

  it('answers 404 ads-client-not-found for an unknown client', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/ads/config?client=nobody' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({
      code: 'ads-client-not-found',
      message: 'client: no ads config for "nobody"',
    });
  });

  it.each([['/ads/config'], ['/ads/config?client=../etc'], ['/ads/config?client=a&client=b']])(
    'answers 400 invalid-field naming client for %s',
    async (url) => {
      const { app } = await buildApp();
      const response = await app.inject({ url });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toMatch(/^client: expected a client id/);
    },
  );
});

describe('ads config routes and hostile URLs', () => {
  /** Several stars: the old regex translation backtracked polynomially on many slashes. */
  const rules = { rules: [{ urlPattern: '/*/*/*/*.html', config: config('.deep p') }], default: config('.any p') };

  it('answers a 2,000-slash url with the default config, as it does a short one', async () => {
    const { app, store } = await buildApp();
    await store.putAdsConfig('deep', rules, 1);
    const ask = (url: string) => app.inject({ url: `/ads/config?client=deep&url=${encodeURIComponent(url)}` });
    const short = await ask('https://n.example/a/b/c/story.html');
    const hostile = await ask(`https://n.example/${'/'.repeat(2000)}x`);
    expect(short.json().placements[0].anchor.selector).toBe('.deep p');
    expect(hostile.statusCode).toBe(200);
    expect(hostile.json().placements[0].anchor.selector).toBe('.any p');
  }, 10_000);

  it('answers a 100,000-character url at once with a 400 naming url', async () => {
    const { app, store } = await buildApp();
    await store.putAdsConfig('deep', rules, 1);
    const response = await app.inject({ url: `/ads/config?client=deep&url=${'/'.repeat(100_000)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^url: expected a string of 1-4000 characters/);
  }, 10_000);

  it('refuses to store a config the component would warn about, naming the field', async () => {
    const { app } = await buildApp();
    const document = {
      placements: [placement],
      attributes: { type: 'custom', 'data-block-on-consent': '_till_responded' },
    };
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/ads-config/shop',
      headers: { ...bearer, ...json },
      payload: document,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid-field',
      message: expect.stringMatching(/^config\.attributes\.data-block-on-consent: /),
    });
  });

  it('answers 500 internal-error for a stored document that no longer validates', async () => {
    const { app, store } = await buildApp();
    await store.putAdsConfig(
      'stale',
      { placements: [placement], attributes: { 'data-src': 'javascript:alert(1)' } },
      1,
    );
    const response = await app.inject({ url: '/ads/config?client=stale' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal-error');
  });
});
