// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutoAdsElement } from '../../../src/auto-ads/element.ts';
import { article, createFakePage, type FakePage, pageBox, paragraphs } from './fake-page.ts';

const CONFIG = {
  placements: [{ anchor: { selector: 'article > p', all: true }, pos: 4, type: 1, attributes: { 'data-where': 'p' } }],
  attributes: { type: 'fake', 'data-from': 'config' },
  adConstraints: { initialMinSpacing: '400px', maxAdCount: 3 },
};

type Reply = { status?: number; body?: string } | Error;

let page: FakePage;
let fetchMock: ReturnType<typeof vi.fn>;

function reply(answer: Reply) {
  fetchMock.mockImplementation(async () => {
    if (answer instanceof Error) throw answer;
    return new Response(answer.body ?? '', { status: answer.status ?? 200 });
  });
}

/** Builds `<page-auto-ads ...>` as the first child of a page with `content` and settles. */
async function build(attributes: string, content = article(40), config: unknown = CONFIG, before = '') {
  document.body.innerHTML = `${before}<page-auto-ads ${attributes}></page-auto-ads>${content}`;
  if (config !== undefined) reply({ body: typeof config === 'string' ? config : JSON.stringify(config) });
  const element = document.querySelector<HTMLElement>('page-auto-ads')!;
  const events: unknown[] = [];
  element.addEventListener('ads-placed', (event) => events.push((event as CustomEvent).detail));
  const Implementation = createAutoAdsElement(page);
  const instance = new Implementation(element, page);
  instance.buildCallback();
  await page.settle();
  return { element, events, instance };
}

const codes = () => page.reports.map((r) => `${r.level ?? 'error'} ${r.code}`);
const ads = () => [...document.querySelectorAll('page-ad')];
const CUSTOM = 'type="custom" data-config-url="/ads/config" data-ad-client="pub-1"';

beforeEach(() => {
  page = createFakePage();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
  document.documentElement.querySelector('page-ads-debug')?.remove();
});

describe('element', () => {
  it('reports a missing type and fetches nothing', async () => {
    await build('data-config-url="/c"');
    expect(codes()).toEqual(['error auto-ads-type-missing']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports an unknown type and fetches nothing', async () => {
    await build('type="alright"');
    expect(page.reports).toEqual([{ code: 'auto-ads-type-unknown', level: undefined, got: '"alright"' }]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports a missing required data-* attribute and fetches nothing', async () => {
    await build('type="adsense"');
    expect(codes()).toEqual(['error auto-ads-attribute-missing']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports an insecure cross-origin config URL and fetches nothing', async () => {
    await build('type="custom" data-config-url="http://ads.example/config"');
    expect(codes()).toEqual(['error auto-ads-config-url-invalid']);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('warns when it is not the first child of body, and still works', async () => {
    const { events } = await build(CUSTOM, article(40), CONFIG, '<header></header>');
    expect(page.reports).toEqual([{ code: 'auto-ads-not-first-child', level: 'warn', got: '"header"' }]);
    expect(events).toMatchObject([{ adsPlaced: 3, totalAdsOnPage: 3 }]);
  });

  it('names the first child of body when it is nested elsewhere', async () => {
    await build(CUSTOM, article(40), CONFIG, '<main>');
    expect(page.reports).toEqual([{ code: 'auto-ads-not-first-child', level: 'warn', got: '"main"' }]);
  });

  it('does not warn as the first child of body', async () => {
    await build(CUSTOM);
    expect(page.reports).toEqual([]);
  });

  it('fetches the config once with GET, CORS and no credentials', async () => {
    await build(CUSTOM);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(new URL(url).pathname).toBe('/ads/config');
    expect(new URL(url).searchParams.get('client')).toBe('pub-1');
    expect(init).toMatchObject({ credentials: 'omit', mode: 'cors' });
    expect(init.method ?? 'GET').toBe('GET');
  });

  it('waits until the document is first visible before fetching', async () => {
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    await build(CUSTOM);
    expect(fetchMock).not.toHaveBeenCalled();
    hidden.mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange'));
    await page.settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    document.dispatchEvent(new Event('visibilitychange'));
    await page.settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    hidden.mockRestore();
  });

  it('scans the page only once the parser is done', async () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    await build(CUSTOM);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(ads()).toEqual([]);
    state.mockReturnValue('interactive');
    document.dispatchEvent(new Event('DOMContentLoaded'));
    await page.settle();
    expect(ads()).toHaveLength(3);
    state.mockRestore();
  });

  it.each([
    ['a network error', new TypeError('Failed to fetch'), 'auto-ads-config-fetch-failed'],
    ['a non-2xx answer', { status: 500, body: JSON.stringify(CONFIG) }, 'auto-ads-config-fetch-failed'],
    ['an empty body', { body: '' }, 'auto-ads-config-invalid'],
    ['invalid JSON', { body: '{"placements": [' }, 'auto-ads-config-invalid'],
    ['JSON that is not an object', { body: '[1, 2]' }, 'auto-ads-config-invalid'],
  ] as [string, Reply, string][])('reports %s once and places no ads', async (_name, answer, code) => {
    document.body.innerHTML = '';
    const pending = build(CUSTOM, article(40), undefined);
    reply(answer);
    await pending;
    expect(codes()).toEqual([`error ${code}`]);
    expect(ads()).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reports a custom type without data-config-url and fetches nothing', async () => {
    const report = vi.spyOn(page, 'report');
    await build('type="custom"');
    expect(codes()).toEqual(['error auto-ads-attribute-missing']);
    expect(report.mock.calls[0]?.[1].expected).toContain('data-config-url');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reports placements that are not an array and places no ads', async () => {
    await build(CUSTOM, article(40), { placements: 'everywhere', attributes: { type: 'fake' } });
    expect(page.reports).toEqual([{ code: 'auto-ads-field-invalid', level: 'warn', got: '"everywhere"' }]);
    expect(ads()).toEqual([]);
  });

  it('inserts ads with merged attributes and fires ads-placed', async () => {
    const { element, events } = await build(CUSTOM);
    expect(ads()).toHaveLength(3);
    const attributes = Object.fromEntries([...ads()[0]!.attributes].map((a) => [a.name, a.value]));
    expect(attributes).toMatchObject({
      layout: 'fixed-height',
      height: '0',
      type: 'fake',
      'data-ad-client': 'pub-1',
      'data-from': 'config',
      'data-where': 'p',
    });
    expect(events).toMatchObject([{ adsPlaced: 3, totalAdsOnPage: 3 }]);
    expect(page.triggerAction).toHaveBeenCalledWith(element, 'ads-placed', expect.any(CustomEvent));
  });

  it('warns about config problems and keeps the valid parts', async () => {
    await build(CUSTOM, article(40), {
      ...CONFIG,
      noConfigReason: 'partial',
      placements: [{ anchor: { selector: 'p[' }, pos: 4, type: 1 }, { pos: 9 }, ...CONFIG.placements],
    });
    // `{pos: 9}` has three problems (anchor, pos, type): one warning each.
    const dropped = Array(3).fill('warn auto-ads-placement-invalid');
    expect(codes()).toEqual(['warn auto-ads-no-config-reason', ...dropped, 'warn auto-ads-selector-invalid']);
    expect(ads()).toHaveLength(3);
  });

  it('gives inserted ads the consent markers of the element, never those of the config', async () => {
    const weakening = { 'data-block-on-consent': '_till_responded', 'data-block-on-consent-purposes': 'none' };
    await build(`${CUSTOM} data-block-on-consent-purposes="ads"`, article(40), {
      ...CONFIG,
      attributes: { ...CONFIG.attributes, ...weakening },
      placements: [{ ...CONFIG.placements[0], attributes: weakening }],
      optInStatus: [2],
      stickyAdAttributes: weakening,
    });
    const markers = ads().map((ad) => [
      ad.getAttribute('data-block-on-consent'),
      ad.getAttribute('data-block-on-consent-purposes'),
    ]);
    expect(markers).toEqual(Array(4).fill([null, 'ads']));
    expect(codes()).toEqual(Array(6).fill('warn auto-ads-consent-attribute-dropped'));
  });

  it('inserts the anchor ad when optInStatus contains 2', async () => {
    await build(CUSTOM, article(40), { ...CONFIG, optInStatus: [2], stickyAdAttributes: { 'data-no-fill': 'true' } });
    const sticky = document.querySelector('page-ad[sticky]');
    expect(sticky?.getAttribute('sticky')).toBe('bottom');
    expect(sticky?.getAttribute('data-no-fill')).toBe('true');
    expect(sticky?.getAttribute('type')).toBe('fake');
    expect(document.querySelector('page-auto-ads')?.nextElementSibling).toBe(sticky);
  });

  it('warns and adds no anchor ad when the page has a sticky ad', async () => {
    await build(CUSTOM, `<page-ad sticky="top" style="position:fixed"></page-ad>${article(40)}`, {
      ...CONFIG,
      optInStatus: [2],
    });
    expect(document.querySelectorAll('page-ad[sticky]')).toHaveLength(1);
    expect(codes()).toEqual(['warn auto-ads-sticky-ad-exists']);
  });

  it('draws the debug overlay when the URL asks for it', async () => {
    location.hash = '#page-ads-debug';
    await build(CUSTOM, article(40), {
      ...CONFIG,
      placements: [...CONFIG.placements, { anchor: { selector: '.none' }, pos: 1, type: 1 }],
    });
    location.hash = '';
    const overlay = document.querySelector('page-ads-debug');
    expect(overlay?.parentElement).toBe(document.documentElement);
    const labels = [...(overlay?.querySelectorAll('span') ?? [])].map((span) => span.textContent?.trim());
    expect(labels.slice(0, 6)).toEqual([
      'P1 in-viewport',
      'P1 in-viewport',
      'P1 in-viewport',
      'P1 in-viewport',
      'P1 placed',
      'P1 too-near',
    ]);
    expect(overlay?.querySelector('pre')?.textContent).toContain('no anchor: placement 2 (.none)');
  });

  it('stops placing after unlayout (removal, withdrawal) and resumes on layout', async () => {
    const config = { ...CONFIG, adConstraints: { initialMinSpacing: '400px', maxAdCount: 10 } };
    const { element, instance } = await build(CUSTOM, article(8), config);
    expect(ads()).toHaveLength(1);
    element.remove();
    instance.unlayoutCallback();
    const more = () => document.querySelector('article')!.insertAdjacentHTML('beforeend', article(30).slice(9, -10));
    more();
    await page.settle();
    expect(ads()).toHaveLength(1);
    document.body.prepend(element);
    instance.layoutCallback();
    await page.settle();
    expect(ads().length).toBeGreaterThan(1);
  });

  it('places nothing when unlaid out before the config arrives', async () => {
    let answer = (_response: Response) => {};
    const pending = build(CUSTOM);
    fetchMock.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { instance } = await pending;
    expect(fetchMock).toHaveBeenCalledTimes(1);
    instance.unlayoutCallback();
    answer(new Response(JSON.stringify(CONFIG)));
    await page.settle();
    expect(ads()).toEqual([]);
    instance.layoutCallback();
    await page.settle();
    expect(ads()).toHaveLength(3);
  });

  it('draws no overlay without the hash', async () => {
    await build(CUSTOM);
    expect(document.querySelector('page-ads-debug')).toBeNull();
  });
});

/** Gaps between vertically adjacent ads, top to bottom. */
function gaps(elements: Element[]): number[] {
  const boxes = elements.map((ad) => pageBox(ad)).sort((a, b) => a.top - b.top);
  return boxes.slice(1).map((box, i) => box.top - boxes[i]!.bottom);
}

describe('element: spacing and constraints', () => {
  const placeAll = { anchor: { selector: 'p', all: true }, pos: 4, type: 1 };

  it.each([
    ['300px', 300],
    ['301px', 600],
  ])('keeps ads %s apart, equality allowed (gaps of %i px between 300 px paragraphs)', async (spacing, gap) => {
    const { events } = await build(CUSTOM, `<article>${paragraphs(30, 'p', 300)}</article>`, {
      placements: [placeAll],
      attributes: { type: 'fake' },
      adConstraints: { initialMinSpacing: spacing, maxAdCount: 5 },
    });
    expect(events).toEqual([{ adsPlaced: 5, totalAdsOnPage: 5 }]);
    expect(ads()).toHaveLength(5);
    expect(gaps(ads())).toEqual([gap, gap, gap, gap]);
    expect(ads().every((ad) => pageBox(ad).height > 0 && pageBox(ad).top >= page.viewportHeight)).toBe(true);
  });

  it.each([
    [1, 'BEFORE', 0],
    [2, 'FIRST_CHILD', 0],
    [3, 'LAST_CHILD', 1],
    [4, 'AFTER', 1],
  ])('measures spacing from the anchor top or bottom (pos %i, %s)', async (pos, _name, placedCount) => {
    // Manual ad 1000-1050; the anchor's top is 100 px below it, its bottom 500 px below it.
    const content = `<div data-h="1000"></div><page-ad class="manual" data-h="50"></page-ad><div data-h="100"></div>
      <div id="tall"><p data-h="400">text</p></div>${paragraphs(20, 'q')}`;
    const { events } = await build(CUSTOM, content, {
      placements: [{ anchor: { selector: '#tall' }, pos, type: 1 }],
      attributes: { type: 'fake' },
      adConstraints: { initialMinSpacing: '300px', maxAdCount: 5 },
    });
    expect(events).toEqual([{ adsPlaced: placedCount, totalAdsOnPage: 1 + placedCount }]);
    expect(ads().filter((ad) => !ad.classList.contains('manual'))).toHaveLength(placedCount);
  });

  it.each([
    ['a unit-less spacing', { initialMinSpacing: '50', maxAdCount: 3 }],
    ['a negative spacing', { initialMinSpacing: '-100px', maxAdCount: 3 }],
    ['a missing maxAdCount', { initialMinSpacing: '100px' }],
    [
      'a rule without adCount',
      { initialMinSpacing: '100px', subsequentMinSpacing: [{ spacing: '100px' }], maxAdCount: 3 },
    ],
  ])('falls back to the default constraints (1vp, 3:2vp, 6:3vp, max 8) on %s', async (_name, adConstraints) => {
    const { events } = await build(CUSTOM, article(140), {
      placements: [placeAll],
      attributes: { type: 'fake' },
      adConstraints,
    });
    expect(codes()).toEqual(['warn auto-ads-constraints-invalid']);
    expect(events).toEqual([{ adsPlaced: 8, totalAdsOnPage: 8 }]);
    // Viewport 500 px, 100 px paragraphs: 1vp -> 500, 2vp -> 1000, 3vp -> 1500 px gaps.
    expect(gaps(ads())).toEqual([500, 500, 1000, 1000, 1000, 1500, 1500]);
  });
});
