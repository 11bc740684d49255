// @vitest-environment happy-dom
/** `<page-geo>` below the browser: the page's address, its markup and a patched country the test gives. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGeoElement } from '../../../src/geo/element.ts';
import type { PageRuntime } from '../../../src/runtime/index.ts';
import { FakePageElement } from '../auto-ads/fake-page.ts';

const GEO = { ISOCountryGroups: { eea: ['preset-eea'], california: ['preset-us-ca'], nowhere: ['unknown'] } };

/** Builds `<page-geo attributes>` with `config` on a page at `url`, the script patched with `patched`. */
async function build(url: string, { attributes = '', config = GEO as object, patched = 'de' } = {}) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
  document.body.innerHTML = `<page-geo layout="nodisplay" ${attributes}><script type="application/json">${JSON.stringify(config)}</script></page-geo>`;
  const report = vi.fn();
  const provideService = vi.fn();
  const page = { PageElement: FakePageElement, report, provideService } as unknown as PageRuntime;
  const Geo = createGeoElement(page, patched);
  await new Geo(document.querySelector('page-geo')!, page).buildCallback();
  return {
    geo: provideService.mock.calls.find(([name]) => name === 'geo')?.[1],
    codes: report.mock.calls.map(([, d]) => d.code),
    classes: [...document.documentElement.classList].filter((name) => name.startsWith('page-')).sort(),
  };
}

afterEach(() => {
  document.documentElement.className = '';
  document.body.innerHTML = '';
});

describe('page-geo element', () => {
  it('ignores the debug hash on a public host and says so', async () => {
    const { geo, codes } = await build('https://news.example/a#page-geo=us');
    expect(geo).toEqual({ country: 'de', subdivision: 'unknown', matchedGroups: ['eea'] });
    expect(codes).toEqual(['geo-debug-ignored']);
  });

  it('honours the debug hash on a public host with data-allow-debug-override', async () => {
    const { geo, codes } = await build('https://news.example/a#page-geo=fr', {
      attributes: 'data-allow-debug-override',
    });
    expect(geo).toEqual({ country: 'fr', subdivision: 'unknown', matchedGroups: ['eea'] });
    expect(codes).toEqual([]);
  });

  it('sets page-geo-no-group when no group matches', async () => {
    const { geo, classes } = await build('http://127.0.0.1:8000/a#page-geo=jp');
    expect(geo).toEqual({ country: 'jp', subdivision: 'unknown', matchedGroups: [] });
    expect(classes).toEqual(['page-geo-no-group', 'page-iso-country-jp']);
  });

  it('reports an invalid config and still provides the country', async () => {
    const { geo, codes } = await build('http://127.0.0.1:8000/a#page-geo=de', { config: { groups: {} } });
    expect(geo).toEqual({ country: 'de', subdivision: 'unknown', matchedGroups: [] });
    expect(codes).toContain('geo-config-invalid');
  });
});
