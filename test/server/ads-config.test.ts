import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAdsConfigDir, matchesUrlPattern, parseAdsConfigDocument, selectAdsConfig } from '../../server/ads-config.ts';
import { ConfigError } from '../../server/errors.ts';
import { buildApp } from './app-harness.ts';

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
    expect(article.placements[0]?.anchor.selector).toBe('article p');
    expect(article.adConstraints?.maxAdCount).toBeGreaterThan(0);
  });

  it('treats a missing folder as empty', () => {
    expect(loadAdsConfigDir(join(tmpdir(), 'page-no-such-folder')).size).toBe(0);
  });

  it.each([
    ['placements missing', {}, 'document: expected a ConfigObj with placements, or {rules, default}'],
    ['bad pos', { placements: [{ ...placement, pos: 5 }] }, 'config.placements[0].pos: expected one of 1 (BEFORE)'],
    ['string pos', { placements: [{ ...placement, pos: '4' }] }, 'config.placements[0].pos'],
    ['bad type', { placements: [{ ...placement, type: 2 }] }, 'config.placements[0].type: expected 1 (BANNER), got 2'],
    ['no selector', { placements: [{ ...placement, anchor: {} }] }, 'config.placements[0].anchor.selector: expected a string'],
    ['negative index', { placements: [{ ...placement, anchor: { selector: 'p', index: -1 } }] }, 'anchor.index: expected an integer'],
    ['bad sub', { placements: [{ ...placement, anchor: { selector: 'p', sub: { all: 1 } } }] }, 'anchor.sub.all: expected true or false'],
    ['negative margin', { placements: [{ ...placement, style: { top_m: -4 } }] }, 'style.top_m: expected a number of 0 or more'],
    ['bad attribute', { placements: [placement], attributes: { onclick: 'x' } }, 'config.attributes: expected type, layout or data-* names, got "onclick"'],
    ['unit-less spacing', { placements: [], adConstraints: { initialMinSpacing: '10', maxAdCount: 3 } }, 'initialMinSpacing: expected a spacing such as 300px or 1.5vp'],
    ['missing maxAdCount', { placements: [], adConstraints: { initialMinSpacing: '1vp' } }, 'adConstraints.maxAdCount: expected an integer'],
    ['bad rule', { rules: [{ urlPattern: '/a*', config: {} }] }, 'rules[0].config.placements: expected an array'],
  ])('refuses a document with %s, naming the field', (_name, document, message) => {
    expect(() => parseAdsConfigDocument(document)).toThrow(message);
  });

  it('allows size and side attributes on the anchor ad only', () => {
    const sticky = { type: 'fake', height: '50', sticky: 'bottom' };
    expect(parseAdsConfigDocument({ placements: [], stickyAdAttributes: sticky }).default?.stickyAdAttributes).toEqual(sticky);
    expect(() => parseAdsConfigDocument({ placements: [], attributes: { height: '50' } })).toThrow('attributes');
  });

  it('refuses to load an invalid file with a ConfigError naming file and field', () => {
    const dir = folder({ 'shop.json': JSON.stringify({ placements: [{ ...placement, pos: 9 }] }) });
    expect(() => loadAdsConfigDir(dir)).toThrow(ConfigError);
    expect(() => loadAdsConfigDir(dir)).toThrow(`ads-config-invalid: ${join(dir, 'shop.json')}: config.placements[0].pos`);
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
    expect(matchesUrlPattern('/sport/*', url, url.href)).toBe(true);
    expect(matchesUrlPattern('/news/*', url, url.href)).toBe(false);
    expect(matchesUrlPattern('https://news.example/*.html?x=1', url, url.href)).toBe(true);
    expect(matchesUrlPattern('https://other.example/*', url, url.href)).toBe(false);
    expect(matchesUrlPattern('/a.b', new URL('https://x/axb'), '')).toBe(false);
  });

  it('picks the first matching rule, then the default, then an empty config', () => {
    const document = parseAdsConfigDocument({
      rules: [
        { urlPattern: '/sport/*', config: config('.sport p') },
        { urlPattern: '/*', config: config('.any p') },
      ],
    });
    expect(selectAdsConfig(document, 'https://n.example/sport/a')?.placements[0]?.anchor.selector).toBe('.sport p');
    expect(selectAdsConfig(document, '/news/a')?.placements[0]?.anchor.selector).toBe('.any p');
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
    expect(response.json().error).toEqual({ code: 'ads-client-not-found', message: 'client: no ads config for "nobody"' });
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
