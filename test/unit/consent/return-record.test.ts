// @vitest-environment happy-dom
/**
 * The return record (docs/decisions/consent-return-record.md) below the browser: the writer's
 * entry for a config and a stored decision, the reader's refusals (another decision, expiry,
 * another config, GPC, malformed values) and the gate's answers to a replayed entry before the
 * provider.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeReturnRecord } from '../../../src/consent/return-record.ts';
import { rulesOf } from '../../../src/consent/fast-path.ts';
import { createConsentGate } from '../../../src/runtime/consent-gate.ts';
import { readConfigScript } from '../../../src/browser-shared/config-script.ts';
import { storeKeyOf } from '../../../src/browser-shared/site-store.ts';
import {
  RETURN_CONFIGS,
  RETURN_PREFIX,
  readReturnEntry,
  requestKeyOf,
  returnKeyOf,
} from '../../../src/wire/return-record.ts';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 11, 2);
const CONFIG = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt' };

/** The site store as the runtime keeps it, in memory, mirrored to localStorage for the fast path's reader. */
function memoryStorage(values: Record<string, unknown> = {}) {
  const sync = () => localStorage.setItem(storeKeyOf(location.hostname), btoa(JSON.stringify({ version: 1, values })));
  sync();
  return {
    values,
    get: (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined),
    set: (name: string, value: unknown) => {
      values[name] = value;
      sync();
    },
  };
}

/** A page with `<page-consent>` (config `config`) and the given blocked markup. */
function page(config: object = CONFIG, blocked = '', attributes = '') {
  document.body.innerHTML = `<page-consent id="consent"${attributes}><script type="application/json">${JSON.stringify(config)}</script><div id="prompt" hidden></div><div id="settings" hidden></div></page-consent>
<script type="text/plain" data-block-on-consent></script>
<script type="text/plain" data-block-on-consent="_till_responded"></script>
<script type="text/plain" data-block-on-consent-purposes="ads"></script>${blocked}`;
  return document.querySelector('page-consent') as Element;
}

const accepted = (extra: object = {}) => ({ version: 2, state: 'accepted', time: NOW - DAY_MS, ...extra });

/** The item of `element`'s entry, as the element and the writer name it. */
const keyOf = (element: Element, hasGpc = false) =>
  returnKeyOf(element.id, element.getAttribute('type'), readConfigScript(element), hasGpc);

/** The hostname's entry items, by config key. */
const items = () =>
  Object.fromEntries(
    Object.keys(localStorage)
      .filter((name) => name.startsWith(RETURN_PREFIX))
      .map((name) => [name, localStorage.getItem(name)]),
  );
const setEntry = (item: string, lines: readonly unknown[]) =>
  localStorage.setItem(item.startsWith(RETURN_PREFIX) ? item : RETURN_PREFIX + item, lines.join('\n'));

/** The entry `writeReturnRecord` wrote for `element`, as its lines. */
const linesOf = (element: Element) => localStorage.getItem(keyOf(element))?.split('\n');

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('writeReturnRecord', () => {
  it('writes the decision, its end of life and what it allows under every request of the page', () => {
    const element = page();
    const storage = memoryStorage({ 'consent:site': accepted({ purposeConsents: { ads: false } }) });
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
    const [key, decision, until, wait, ...requests] = linesOf(element) ?? [];
    expect(key).toBe('consent:site');
    expect(JSON.parse(decision ?? '')).toEqual(accepted({ purposeConsents: { ads: false } }));
    // The default lifetime: 390 days from the decision.
    expect(Number(until)).toBe(NOW - DAY_MS + 390 * DAY_MS);
    expect(wait).toBe('1');
    expect(requests).toEqual(['+default|', '+_till_responded|', '-null|ads']);
  });

  it('takes the strictest geo group: a group that rejects a purpose or has a shorter lifetime', () => {
    const config = { ...CONFIG, geoOverride: { eea: { consentLifetimeDays: 30 } } };
    const element = page(config);
    const storage = memoryStorage({ 'consent:site': accepted({ purposeConsents: { ads: true } }) });
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
    const [, , until, , ...requests] = linesOf(element) ?? [];
    expect(Number(until)).toBe(NOW - DAY_MS + 30 * DAY_MS);
    expect(requests).toEqual(['+default|', '+_till_responded|', '+null|ads']);
  });

  it('writes no entry without a decision, for an expired one, an invalid config or Consent Mode, and removes an old one', () => {
    for (const [config, stored] of [
      [CONFIG, undefined],
      [CONFIG, accepted({ time: NOW - 400 * DAY_MS })],
      [{ consentInstanceId: 'site', promptUI: 'prompt' }, accepted()],
      [{ ...CONFIG, consentModeMapping: { ad_storage: 'consent' } }, accepted()],
    ] as const) {
      const element = page(config);
      const storage = memoryStorage({ 'consent:site': stored });
      const other = ['consent:site', JSON.stringify(stored), NOW + DAY_MS, 1];
      setEntry(keyOf(element), ['stale']);
      setEntry('other', other);
      writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
      // Another config's entry for the same decision stays; where there is no decision it goes too.
      expect(items()).toEqual(stored ? { [`${RETURN_PREFIX}other`]: other.join('\n') } : {});
    }
  });

  it('lets the set-up wait only when nothing is urgent and the post-prompt UI is fixed', () => {
    const wait = (config: object, stored: object = accepted()) => {
      const element = page(config);
      const storage = memoryStorage({ 'consent:site': stored });
      writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
      return linesOf(element)?.[3];
    };
    expect(wait({ ...CONFIG, postPromptUI: 'settings' })).toBe('1');
    expect(wait({ ...CONFIG, exposesTcfApi: true })).toBe('0');
    expect(wait({ ...CONFIG, exposesGppApi: true })).toBe('0');
    expect(wait({ ...CONFIG, checkConsentHref: 'https://example.com/check' })).toBe('0');
    document.body.insertAdjacentHTML('beforeend', '<div id="outside"></div>');
    expect(wait({ ...CONFIG, postPromptUI: 'nowhere' })).toBe('0');
  });

  it('keeps what an entry for the same decision knew, drops it for another decision, and keeps the most recent configs', () => {
    const element = page(CONFIG, '<page-ad data-block-on-consent="_till_accepted"></page-ad>');
    const storage = memoryStorage({ 'consent:site': accepted() });
    const key = keyOf(element);
    const entry = (decision: object, until = NOW + DAY_MS) => [
      'consent:site',
      JSON.stringify(decision),
      until,
      1,
      '+other|x',
    ];
    // Other configs' entries for the same decision, ending one day apart, and one whose decision changed.
    for (let index = 0; index < RETURN_CONFIGS; index++)
      setEntry(`old${index}`, entry(accepted(), NOW + (index + 1) * DAY_MS));
    setEntry('changed', entry({ ...accepted(), state: 'rejected' }));
    setEntry(key, entry(accepted()));
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
    expect(linesOf(element)?.slice(4)).toEqual([
      '+other|x',
      '+default|',
      '+_till_responded|',
      '-null|ads',
      '+_till_accepted|',
    ]);
    // At most RETURN_CONFIGS in all: the one ending first and the stale one went.
    expect(Object.keys(items()).sort()).toEqual(
      [...Array.from({ length: RETURN_CONFIGS - 1 }, (_, index) => `${RETURN_PREFIX}old${index + 1}`), key].sort(),
    );
    setEntry(key, entry({ ...accepted(), state: 'rejected' }));
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), NOW);
    expect(linesOf(element)?.slice(4)).not.toContain('+other|x');
  });
});

describe('readReturnEntry', () => {
  const stored = accepted();
  const entry = ['consent:site', JSON.stringify(stored), NOW + DAY_MS, '1', '+default|'].join('\n');
  const get = (decision: unknown) => (key: string) => (key === 'consent:site' ? decision : undefined);

  it('reads a valid entry', () => {
    expect(readReturnEntry(entry, get(stored), NOW)).toEqual(['1', '+default|']);
  });

  it.each([
    ['another stored decision', entry, get({ ...stored, state: 'rejected' }), NOW],
    ['no stored decision', entry, get(undefined), NOW],
    ['past its time', entry, get(stored), NOW + DAY_MS],
    ['a truncated entry', 'consent:site', get(undefined), NOW],
    ['no entry', null, get(stored), NOW],
    ['an empty entry', '', get(stored), NOW],
    ['a time that is not a number', entry.replace(String(NOW + DAY_MS), 'soon'), get(stored), NOW],
  ])('refuses %s', (_, text, stored, now) => {
    expect(readReturnEntry(text, stored, now)).toBeNull();
  });
});

describe('returnKeyOf', () => {
  it('changes with the config, the id, the type and GPC, and is one line', () => {
    const base = keyOf(page());
    expect(keyOf(page())).toBe(base);
    expect(base).not.toContain('\n');
    expect(keyOf(page({ ...CONFIG, consentRequired: false }))).not.toBe(base);
    expect(keyOf(page(), true)).not.toBe(base);
    expect(keyOf(page(CONFIG, '', ' type="cmp"'))).not.toBe(base);
    const renamed = page();
    renamed.id = 'other';
    expect(keyOf(renamed)).not.toBe(base);
  });
});

describe('a replayed entry in the gate', () => {
  /** The gate after the element replayed `element`'s entry (as src/consent/element.ts does); `misses` counts unknown requests. */
  function replayed(storage: ReturnType<typeof memoryStorage>, element: Element) {
    const gate = createConsentGate(document, () => {});
    const lines = readReturnEntry(localStorage.getItem(keyOf(element)), storage.get, Date.now());
    const misses = { count: 0 };
    if (lines) gate.replay(lines, () => misses.count++);
    return { gate, lines, misses };
  }

  it('opens the gate for the allowed requests only, and tells of each unknown one', () => {
    const element = page();
    const storage = memoryStorage({ 'consent:site': accepted() });
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), Date.now());
    const { gate, lines, misses } = replayed(storage, element);
    expect(lines?.[0]).toBe('1');
    expect(gate.decide({ policy: 'default', purposes: [] })).toBe('allow');
    expect(gate.decide({ policy: '_till_responded', purposes: [] })).toBe('allow');
    expect(gate.decide({ policy: null, purposes: ['ads'] })).toBe('pending');
    expect(misses.count).toBe(0);
    expect(gate.decide({ policy: '_till_accepted', purposes: [] })).toBe('pending');
    expect(misses.count).toBe(1);
  });

  it('has nothing to replay once the decision changed', () => {
    const element = page();
    const storage = memoryStorage({ 'consent:site': accepted() });
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), Date.now());
    storage.set('consent:site', accepted({ state: 'rejected' }));
    expect(replayed(storage, element).lines).toBeNull();
  });

  it('gives the provider the last word once it is installed', () => {
    const element = page();
    const storage = memoryStorage({ 'consent:site': accepted() });
    writeReturnRecord(storage, element, keyOf(element), rulesOf(element, readConfigScript(element)), Date.now());
    const { gate, misses } = replayed(storage, element);
    gate.setProvider(
      {
        decide: () => 'deny',
        getPolicyState: async () => 'sufficient',
        snapshot: () => ({}) as never,
        whenChecked: async () => {},
        subscribe: () => () => {},
      },
      true,
    );
    expect(gate.decide({ policy: 'default', purposes: [] })).toBe('deny');
    expect(gate.decide({ policy: '_auto_reject', purposes: ['x'] })).toBe('deny');
    expect(misses.count).toBe(0);
  });

  it('keys requests by policy and purposes', () => {
    expect(requestKeyOf({ policy: null, purposes: ['ads', 'analytics'] })).toBe('null|ads,analytics');
    expect(requestKeyOf({ policy: '_auto_reject', purposes: [] })).toBe('_auto_reject|');
  });
});
