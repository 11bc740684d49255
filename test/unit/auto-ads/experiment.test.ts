// @vitest-environment happy-dom
/**
 * The experiment part (src/auto-ads/experiment.ts) below the browser: which arm, when it is
 * stored, and the one report per page view; measurement itself is checked in Chromium
 * (test/e2e/auto-ads-experiment.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  assignExperiment,
  CONSENT_WAIT_MS,
  EXPERIMENT_STORAGE_KEY,
  type ExperimentOptions,
} from '../../../src/auto-ads/experiment.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';

const WIRE = {
  placements: [],
  onExperimentHref: '/ads/experiment?client=c',
  experiment: {
    id: 'x',
    arms: [
      { id: 'low', weight: 1, settings: { maxAdCount: 1 } },
      { id: 'high', weight: 1, settings: { maxAdCount: 5 } },
    ],
  },
};

type State = string | null | undefined;

/** A page whose consent API answers `state` (undefined: never), with a site store in a Map. */
function fakePage(state: State) {
  const stored = new Map<string, unknown>();
  const listeners: (() => void)[] = [];
  let current = state;
  const page = {
    storage: {
      get: (key: string) => stored.get(key),
      set: (key: string, value: unknown) => stored.set(key, value),
      remove: (key: string) => stored.delete(key),
      isPersistent: true,
    },
    consent: {
      getPolicyState: () => (current === undefined ? new Promise(() => {}) : Promise.resolve(current)),
      onChange: (callback: () => void) => {
        listeners.push(callback);
        return () => {};
      },
    },
  };
  const change = (next: State) => {
    current = next;
    for (const listener of listeners) listener();
  };
  return { page: page as unknown as ExperimentOptions['page'], stored, change };
}

const reports: string[] = [];
const assign = (page: ExperimentOptions['page'], wire: object = WIRE) =>
  assignExperiment({
    page,
    config: parseAutoAdsConfig(wire, DEFAULT_CONSTRAINTS).value!,
    configUrl: 'https://ads.example/ads/config?client=c',
    report: (d, level) => reports.push(`${level} ${d.code} ${d.field}`),
  });

let beacon: ReturnType<typeof vi.fn>;
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  reports.length = 0;
  beacon = vi.fn(() => true);
  fetchMock = vi.fn(async () => new Response(null, { status: 204 }));
  Object.defineProperty(navigator, 'sendBeacon', { configurable: true, value: beacon });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(Math, 'random').mockReturnValue(0.9);
});
afterEach(() => {
  // Every page view of a test ends with it: no report is left waiting for the next test's pagehide.
  window.dispatchEvent(new Event('pagehide'));
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  delete (window as { __tcfapi?: unknown }).__tcfapi;
});

describe('assignExperiment', () => {
  it('draws an arm by weight and stores it when consent allows storage', async () => {
    const { page, stored } = fakePage(null);
    const config = await assign(page);
    expect(config.constraints.maximumAdCount).toBe(5);
    expect(stored.get(EXPERIMENT_STORAGE_KEY)).toEqual({ id: 'x', arm: 'high' });
  });

  it("reuses the reader's stored arm", async () => {
    const { page, stored } = fakePage('sufficient');
    stored.set(EXPERIMENT_STORAGE_KEY, { id: 'x', arm: 'low' });
    expect((await assign(page)).constraints.maximumAdCount).toBe(1);
  });

  it('draws again for an arm stored for another experiment', async () => {
    const { page, stored } = fakePage(null);
    stored.set(EXPERIMENT_STORAGE_KEY, { id: 'old', arm: 'low' });
    expect((await assign(page)).constraints.maximumAdCount).toBe(5);
    expect(stored.get(EXPERIMENT_STORAGE_KEY)).toEqual({ id: 'x', arm: 'high' });
  });

  it('neither reads nor stores an arm when consent does not allow storage', async () => {
    const { page, stored } = fakePage('insufficient');
    stored.set(EXPERIMENT_STORAGE_KEY, { id: 'x', arm: 'low' });
    expect((await assign(page)).constraints.maximumAdCount).toBe(5);
    expect(stored.get(EXPERIMENT_STORAGE_KEY)).toEqual({ id: 'x', arm: 'low' });
  });

  it('asks TCF purpose 1 where the page has __tcfapi', async () => {
    (window as { __tcfapi?: unknown }).__tcfapi = (
      _c: string,
      _v: number,
      callback: (d: unknown, s: boolean) => void,
    ) => callback({ gdprApplies: true, eventStatus: 'tcloaded', purpose: { consents: { 1: false } } }, true);
    const { page, stored } = fakePage(null);
    await assign(page);
    expect(stored.has(EXPERIMENT_STORAGE_KEY)).toBe(false);
  });

  it('waits at most CONSENT_WAIT_MS for consent, then keeps the arm once consent allows storage', async () => {
    vi.useFakeTimers();
    const { page, stored, change } = fakePage(undefined);
    const assigned = assign(page);
    await vi.advanceTimersByTimeAsync(CONSENT_WAIT_MS);
    expect((await assigned).constraints.maximumAdCount).toBe(5);
    expect(stored.has(EXPERIMENT_STORAGE_KEY)).toBe(false);
    change('sufficient');
    await vi.advanceTimersByTimeAsync(0);
    expect(stored.get(EXPERIMENT_STORAGE_KEY)).toEqual({ id: 'x', arm: 'high' });
  });

  it('drops an invalid experiment with its diagnostics and keeps the config', async () => {
    const { page, stored } = fakePage(null);
    const wire = { ...WIRE, experiment: { ...WIRE.experiment, id: 'with space' } };
    const config = await assign(page, wire);
    expect(config.constraints).toEqual(DEFAULT_CONSTRAINTS);
    expect(reports).toEqual(['warn auto-ads-experiment-invalid experiment.id']);
    expect(stored.size).toBe(0);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).not.toHaveBeenCalled();
  });
});

describe('the report', () => {
  it('goes once, at the end of the page view, to onExperimentHref resolved against the config URL', async () => {
    await assign(fakePage(null).page);
    expect(beacon).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pagehide'));
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, body] = beacon.mock.calls[0]!;
    expect(url).toBe('https://ads.example/ads/experiment?client=c');
    expect(JSON.parse(body)).toEqual({ experiment: 'x', arm: 'high', adsPlaced: 0, viewable: 0, layoutShift: 0 });
  });

  it('goes by fetch, without credentials, when the beacon is refused', async () => {
    beacon.mockReturnValue(false);
    await assign(fakePage(null).page);
    window.dispatchEvent(new Event('pagehide'));
    expect(fetchMock).toHaveBeenCalledWith('https://ads.example/ads/experiment?client=c', {
      method: 'POST',
      body: expect.stringContaining('"arm":"high"'),
      keepalive: true,
      credentials: 'omit',
      signal: expect.any(AbortSignal),
    });
  });

  it('counts the ads added to the page after the arm was picked', async () => {
    document.body.innerHTML = '<page-ad id="own"></page-ad>';
    await assign(fakePage(null).page);
    document.body.append(document.createElement('page-ad'));
    const wrapper = document.createElement('div');
    wrapper.innerHTML = '<page-ad></page-ad>';
    document.body.append(wrapper);
    await new Promise((resolve) => setTimeout(resolve));
    window.dispatchEvent(new Event('pagehide'));
    expect(JSON.parse(beacon.mock.calls[0]![1]).adsPlaced).toBe(2);
    document.body.innerHTML = '';
  });

  it('sends nothing without onExperimentHref', async () => {
    const { onExperimentHref: _none, ...wire } = WIRE;
    await assign(fakePage(null).page, wire);
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).not.toHaveBeenCalled();
  });
});
