// @vitest-environment happy-dom
/** `startSignals` below the browser: which IAB APIs it installs for the CMP ids a config gives. */
import { afterEach, expect, it, vi } from 'vitest';
import { startSignals } from '../../../src/consent/signals.ts';
import type { PageRuntime } from '../../../src/runtime/index.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  const scope = self as unknown as Record<string, unknown>;
  for (const name of ['__tcfapi', '__gpp', '__uspapi']) delete scope[name];
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

/** Starts the signals of a config with `fields`; returns what it reported and the scripts it added. */
function start(fields: Record<string, unknown>) {
  const { value: config } = parseConsentConfig(
    { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', ...fields },
    { geoGroups: [], baseUrl: 'https://news.example/a' },
  );
  const report = vi.fn();
  const page = { provideService: vi.fn() } as unknown as PageRuntime;
  startSignals(page, config!, report, 'https://cdn.example/v0/page-consent-0.1.js', {
    dispatch: vi.fn(),
    extend: vi.fn(),
  });
  return {
    codes: report.mock.calls.map(([d]) => d.code),
    scripts: [...document.querySelectorAll('script')].map((script) => script.src),
    tcfapi: typeof (self as unknown as { __tcfapi?: unknown }).__tcfapi,
  };
}

it.each([
  ['without cmpId', { exposesTcfApi: true }],
  ['with a cmpId a TC string cannot hold', { exposesTcfApi: true, cmpId: 4096, cmpVersion: 1 }],
  ['with a cmpVersion a TC string cannot hold', { exposesTcfApi: true, cmpId: 300, cmpVersion: 5000 }],
])('installs no API %s and reports it', (_case, fields) => {
  expect(start(fields)).toEqual({ codes: ['consent-cmp-id-missing'], scripts: [], tcfapi: 'undefined' });
});

it('installs the TCF stub and loads its bundle with ids a TC string can hold', () => {
  // What the build gives the consent bundle about its parts.
  vi.stubGlobal('PART_NAMES', 'bounds');
  vi.stubGlobal('PART_PREFIX', 'page-consent-');
  vi.stubGlobal('PART_HASH', 'h1');
  const { codes, scripts, tcfapi } = start({ exposesTcfApi: true, cmpId: 4095, cmpVersion: 4095 });
  // (happy-dom loads no script: each fails, and says so.)
  expect(codes).not.toContain('consent-cmp-id-missing');
  expect(tcfapi).toBe('function');
  expect(scripts).toEqual([
    'https://cdn.example/v0/page-consent-tcf-0.1.js',
    'https://cdn.example/v0/page-consent-bounds.h1.js',
  ]);
});
