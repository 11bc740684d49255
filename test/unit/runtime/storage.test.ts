import { describe, expect, it } from 'vitest';
import type { DiagnosticLevel } from '../../../src/runtime/diagnostics.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import { createStorage } from '../../../src/runtime/storage.ts';

const KEY = 'page-store:example.com';

/** A Storage over a Map; `failWith` makes every call throw that error. */
function memoryStorage(items = new Map<string, string>(), failWith?: { onSet?: Error; onAll?: Error }): Storage {
  const check = (error?: Error) => {
    if (error) throw error;
  };
  return {
    getItem: (key) => {
      check(failWith?.onAll);
      return items.get(key) ?? null;
    },
    setItem: (key, value) => {
      check(failWith?.onAll ?? failWith?.onSet);
      items.set(key, value);
    },
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: () => null,
    get length() {
      return items.size;
    },
  };
}

function setUp(window: { localStorage?: Storage | null }) {
  const reports: { source: string; diagnostic: Diagnostic; level: DiagnosticLevel | undefined }[] = [];
  const storage = createStorage({
    window,
    hostname: 'example.com',
    report: (source, diagnostic, level) => reports.push({ source: String(source), diagnostic, level }),
  });
  return { storage, reports };
}

const encode = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const decode = (base64: string) => new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));

describe('storage', () => {
  it('stores values under page-store:{hostname} as base64 of versioned JSON', () => {
    const items = new Map<string, string>();
    const { storage } = setUp({ localStorage: memoryStorage(items) });
    storage.set('consent', { state: 'accepted' });
    expect([...items.keys()]).toEqual([KEY]);
    const stored = items.get(KEY)!;
    expect(stored).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(decode(stored))).toEqual({ version: 1, values: { consent: { state: 'accepted' } } });
  });

  it('round-trips non-ASCII text through a new page view', () => {
    const items = new Map<string, string>();
    const text = 'Zustimmung für «Werbung» 日本語 😀';
    setUp({ localStorage: memoryStorage(items) }).storage.set('label', text);
    expect(decode(items.get(KEY)!)).toContain(text);
    expect(setUp({ localStorage: memoryStorage(items) }).storage.get('label')).toBe(text);
  });

  it('reads values written earlier and returns undefined for missing keys', () => {
    const items = new Map([[KEY, encode('{"version":1,"values":{"a":1}}')]]);
    const { storage } = setUp({ localStorage: memoryStorage(items) });
    expect(storage.get('a')).toBe(1);
    expect(storage.get('b')).toBeUndefined();
  });

  it('keeps keys another tab wrote after this page read the store', () => {
    const items = new Map<string, string>();
    const { storage } = setUp({ localStorage: memoryStorage(items) });
    expect(storage.get('mine')).toBeUndefined();
    items.set(KEY, encode('{"version":1,"values":{"theirs":"x"}}'));
    storage.set('mine', 'y');
    expect(JSON.parse(decode(items.get(KEY)!)).values).toEqual({ theirs: 'x', mine: 'y' });
  });

  it('removes a key', () => {
    const items = new Map([[KEY, encode('{"version":1,"values":{"a":1,"b":2}}')]]);
    const { storage } = setUp({ localStorage: memoryStorage(items) });
    storage.remove('a');
    expect(storage.get('a')).toBeUndefined();
    expect(JSON.parse(decode(items.get(KEY)!)).values).toEqual({ b: 2 });
  });

  it('is persistent when localStorage works', () => {
    const { storage, reports } = setUp({ localStorage: memoryStorage() });
    expect(storage.isPersistent).toBe(true);
    expect(reports).toEqual([]);
  });

  it('falls back to memory with one warning when localStorage throws', () => {
    const error = Object.assign(new Error('denied'), { name: 'SecurityError' });
    const { storage, reports } = setUp({ localStorage: memoryStorage(new Map(), { onAll: error }) });
    storage.set('a', 1);
    storage.set('b', 2);
    expect([storage.get('a'), storage.get('b')]).toEqual([1, 2]);
    storage.remove('a');
    expect(storage.get('a')).toBeUndefined();
    expect(storage.isPersistent).toBe(false);
    expect(reports).toEqual([
      {
        source: 'page-store',
        diagnostic: {
          code: 'storage-unavailable',
          expected: 'persistent localStorage (choices last this page view only)',
          got: '"SecurityError"',
        },
        level: 'warn',
      },
    ]);
  });

  it('falls back when reading the localStorage property throws', () => {
    const window = Object.defineProperty({}, 'localStorage', {
      get() {
        throw Object.assign(new Error('blocked'), { name: 'SecurityError' });
      },
    });
    const { storage, reports } = setUp(window);
    expect(storage.isPersistent).toBe(false);
    storage.set('a', 1);
    expect(storage.get('a')).toBe(1);
    expect(reports.map((r) => r.diagnostic.got)).toEqual(['"SecurityError"']);
  });

  it('falls back when localStorage is missing', () => {
    const { storage, reports } = setUp({});
    storage.set('a', 'x');
    expect(storage.get('a')).toBe('x');
    expect(storage.isPersistent).toBe(false);
    expect(reports.map((r) => `${r.diagnostic.code} ${r.diagnostic.got}`)).toEqual(['storage-unavailable nothing']);
  });

  it('keeps the values in memory when a write exceeds the quota', () => {
    const items = new Map([[KEY, encode('{"version":1,"values":{"old":true}}')]]);
    const quota = Object.assign(new Error('full'), { name: 'QuotaExceededError' });
    const { storage, reports } = setUp({ localStorage: memoryStorage(items, { onSet: quota }) });
    storage.set('new', 1);
    storage.set('newer', 2);
    expect([storage.get('old'), storage.get('new'), storage.get('newer')]).toEqual([true, 1, 2]);
    expect(storage.isPersistent).toBe(false);
    expect(reports.map((r) => r.diagnostic.got)).toEqual(['"QuotaExceededError"']);
  });

  it.each([
    ['text that is not base64', '%%%not base64%%%'],
    ['base64 of text that is not JSON', encode('{version')],
    ['an unknown version', encode('{"version":2,"values":{"a":1}}')],
    ['values that are not an object', encode('{"version":1,"values":[1]}')],
    ['JSON null', encode('null')],
  ])('reads %s as empty with one storage-corrupt warning', (_name, stored) => {
    const items = new Map([[KEY, stored]]);
    const { storage, reports } = setUp({ localStorage: memoryStorage(items) });
    expect(storage.get('a')).toBeUndefined();
    expect(storage.get('b')).toBeUndefined();
    expect(reports.map((r) => [r.diagnostic.code, r.level])).toEqual([['storage-corrupt', 'warn']]);
    expect(items.get(KEY)).toBe(stored);
  });

  it('reads an item whose bytes are not UTF-8 as corrupt', () => {
    // Valid base64 and JSON punctuation around a byte no UTF-8 text holds (0xFF).
    const items = new Map([[KEY, btoa('{"version":1,"values":{"a":"\xff"}}')]]);
    const { storage, reports } = setUp({ localStorage: memoryStorage(items) });
    expect(storage.get('a')).toBeUndefined();
    expect(reports).toHaveLength(1);
  });

  it('round-trips a lone surrogate (JSON writes it escaped)', () => {
    const items = new Map<string, string>();
    setUp({ localStorage: memoryStorage(items) }).storage.set('odd', 'a\ud800b');
    expect(setUp({ localStorage: memoryStorage(items) }).storage.get('odd')).toBe('a\ud800b');
  });

  it('replaces a corrupt item on the first write', () => {
    const items = new Map([[KEY, 'garbage!']]);
    const { storage, reports } = setUp({ localStorage: memoryStorage(items) });
    storage.set('a', 1);
    expect(JSON.parse(decode(items.get(KEY)!))).toEqual({ version: 1, values: { a: 1 } });
    expect(reports).toHaveLength(1);
    expect(storage.isPersistent).toBe(true);
  });
});
