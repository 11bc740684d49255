// @vitest-environment happy-dom
/**
 * `<page-auto-ads>` with an `experiment` in its config: it places with the config its
 * experiment part returns, and with its own config when the part does not load.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAutoAdsElement } from '../../../src/auto-ads/element.ts';
import type { ExperimentOptions } from '../../../src/auto-ads/experiment.ts';
import { article, createFakePage, type FakePage } from './fake-page.ts';

const CONFIG = {
  placements: [{ anchor: { selector: 'article > p', all: true }, pos: 4, type: 1 }],
  attributes: { type: 'fake' },
  adConstraints: { initialMinSpacing: '400px', maxAdCount: 3 },
  experiment: {
    id: 'x',
    arms: [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 1 },
    ],
  },
};

const scope = globalThis as unknown as { PART_PREFIX?: string; PART_HASH?: string; PART_NAMES?: string };
let page: FakePage & { loadPart: ReturnType<typeof vi.fn> };

async function build(part: unknown) {
  page.loadPart.mockImplementation(async (_file: string, _directory: string, report: (d: unknown) => void) => {
    if (part === undefined) report({ code: 'part-load-failed', expected: 'the part to load', got: 'x' });
    return part;
  });
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(CONFIG)));
  document.body.innerHTML = `<page-auto-ads type="custom" data-config-url="/ads/config"></page-auto-ads>${article(40)}`;
  const element = document.querySelector<HTMLElement>('page-auto-ads')!;
  const Implementation = createAutoAdsElement(page, 'https://cdn.example/v0/page-auto-ads-0.1.js');
  new Implementation(element, page).buildCallback();
  await page.settle();
}

beforeEach(() => {
  Object.assign(scope, { PART_PREFIX: 'page-auto-', PART_HASH: 'h1', PART_NAMES: 'ads-experiment' });
  page = Object.assign(createFakePage(), { loadPart: vi.fn() });
});
afterEach(() => {
  delete scope.PART_PREFIX;
  delete scope.PART_HASH;
  delete scope.PART_NAMES;
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('element with an experiment', () => {
  it('places with the config of the arm the experiment part gives', async () => {
    const assign = vi.fn(async ({ config }: ExperimentOptions) => ({
      ...config,
      constraints: { ...config.constraints, maximumAdCount: 1 },
    }));
    await build({ assign });
    expect(page.loadPart).toHaveBeenCalledWith(
      'page-auto-ads-experiment.h1',
      'https://cdn.example/v0/page-auto-ads-0.1.js',
      expect.any(Function),
    );
    expect(assign.mock.calls[0]?.[0]).toMatchObject({ configUrl: expect.stringContaining('/ads/config') });
    expect(assign.mock.calls[0]?.[0].config.experimentSource).toEqual(CONFIG);
    expect(document.querySelectorAll('page-ad')).toHaveLength(1);
  });

  it('places with its own config, after one diagnostic, when the part does not load', async () => {
    await build(undefined);
    expect(page.reports.map((r) => r.code)).toEqual(['part-load-failed']);
    expect(document.querySelectorAll('page-ad')).toHaveLength(3);
  });

  it('loads no experiment part for a config without an experiment', async () => {
    const { experiment: _none, ...plain } = CONFIG;
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(plain)));
    document.body.innerHTML = `<page-auto-ads type="custom" data-config-url="/ads/config"></page-auto-ads>${article(40)}`;
    const element = document.querySelector<HTMLElement>('page-auto-ads')!;
    new (createAutoAdsElement(page))(element, page).buildCallback();
    await page.settle();
    expect(page.loadPart).not.toHaveBeenCalled();
    expect(document.querySelectorAll('page-ad')).toHaveLength(3);
  });
});
