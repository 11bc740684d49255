// @vitest-environment happy-dom
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: macro templates are written as ${NAME}.
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import { createMacros, randomBase64Url } from '../../../src/runtime/macros.ts';
import type { StorageService } from '../../../src/runtime/types.ts';
import { PAGE_MACROS } from '../../../src/browser-shared/url-macros.ts';

function memoryStorage(): StorageService & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => values.get(key),
    set: (key, value) => void values.set(key, value),
    remove: (key) => void values.delete(key),
    isPersistent: true,
  };
}

function setUp(href = 'https://site.example/a/b?x=1#frag', storage = memoryStorage()) {
  let counter = 0;
  const reports: Diagnostic[] = [];
  const macros = createMacros({
    window: { location: { href } },
    document,
    storage,
    random: () => `r${++counter}`,
    report: (_source, diagnostic) => reports.push(diagnostic),
  });
  return { macros, storage, reports };
}

afterEach(() => {
  document.head.innerHTML = '';
});

describe('macros', () => {
  it('expands SOURCE_URL to the location without the fragment, URL-encoded', async () => {
    expect(await setUp().macros.expand('/c?u=${SOURCE_URL}')).toBe(
      `/c?u=${encodeURIComponent('https://site.example/a/b?x=1')}`,
    );
  });

  it('expands CANONICAL_URL to the canonical link', async () => {
    document.head.innerHTML = '<link rel="canonical" href="https://canonical.example/page">';
    expect(await setUp().macros.expand('${CANONICAL_URL}')).toBe(encodeURIComponent('https://canonical.example/page'));
  });

  it('expands CANONICAL_URL to the source URL without a canonical link', async () => {
    expect(await setUp().macros.expand('${CANONICAL_URL}')).toBe(encodeURIComponent('https://site.example/a/b?x=1'));
  });

  it('keeps PAGE_VIEW_ID, PAGE_VIEW_ID_64 and CONSENT_PAGE_VIEW_ID_64 stable and distinct in a page view', async () => {
    const { macros } = setUp();
    const template = '${PAGE_VIEW_ID}|${PAGE_VIEW_ID_64}|${CONSENT_PAGE_VIEW_ID_64}';
    const first = await macros.expand(template);
    expect(await macros.expand(template)).toBe(first);
    const [id, id64, consentId64] = first.split('|');
    expect(id).toMatch(/^[1-9]\d*$/);
    expect(new Set([id64, consentId64]).size).toBe(2);
  });

  it('creates new page view ids for another page view', async () => {
    const template = '${PAGE_VIEW_ID_64}|${CONSENT_PAGE_VIEW_ID_64}';
    const macrosA = createMacros({
      window: { location: { href: 'https://a.example/' } },
      document,
      storage: memoryStorage(),
    });
    const macrosB = createMacros({
      window: { location: { href: 'https://a.example/' } },
      document,
      storage: memoryStorage(),
    });
    const [a, b] = await Promise.all([macrosA.expand(template), macrosB.expand(template)]);
    expect(a).toMatch(/^[\w-]{16}\|[\w-]{16}$/);
    expect(a).not.toBe(b);
  });

  it('generates 16 base64url characters of randomness', () => {
    const ids = Array.from({ length: 50 }, randomBase64Url);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(50);
  });

  it('creates CLIENT_ID once per scope and keeps it in storage', async () => {
    const { macros, storage } = setUp();
    const first = await macros.expand('${CLIENT_ID(consent)}/${CLIENT_ID}/${CLIENT_ID(consent)}');
    const [consent, plain, again] = first.split('/');
    expect(consent).toBe(again);
    expect(plain).not.toBe(consent);
    expect(storage.values.get('client-id:consent')).toBe(consent);
    expect(storage.values.get('client-id:default')).toBe(plain);
  });

  it('reuses a CLIENT_ID stored by an earlier page view', async () => {
    const storage = memoryStorage();
    storage.set('client-id:consent', 'earlier id');
    expect(await setUp(undefined, storage).macros.expand('CLIENT_ID(consent)')).toBe('earlier%20id');
  });

  it('expands bare registered names on word boundaries', async () => {
    const { macros } = setUp();
    macros.register('NAME', (argument) => `v${argument ?? ''}`);
    expect(await macros.expand('/p?a=NAME&b=NAME(1)&c=MY_NAME&d=NAMES&e=xNAME')).toBe(
      '/p?a=v&b=v1&c=MY_NAME&d=NAMES&e=xNAME',
    );
  });

  it('passes a trimmed argument and undefined for empty parentheses', async () => {
    const { macros } = setUp();
    const seen: (string | undefined)[] = [];
    macros.register('ECHO', (argument) => {
      seen.push(argument);
      return '';
    });
    await macros.expand('${ECHO( a b )}${ECHO()}${ECHO}');
    expect(seen).toEqual(['a b', undefined, undefined]);
  });

  it('leaves unknown macros verbatim', async () => {
    expect(await setUp().macros.expand('/p?r=${RANDOM}&t=TIMESTAMP&q=${lower}')).toBe(
      '/p?r=${RANDOM}&t=TIMESTAMP&q=${lower}',
    );
  });

  it('expands only allowed macros when an allow-list is given', async () => {
    const { macros } = setUp();
    macros.register('A', () => 'a');
    macros.register('B', () => 'b');
    expect(await macros.expand('${A}-${B}-B', ['A'])).toBe('a-${B}-B');
  });

  it('expands the own macros of a call in that call only, over the allow-list', async () => {
    const { macros } = setUp();
    macros.register('A', () => 'a');
    const extra = new Map([['INFO', (field?: string) => `info:${field}`]]);
    expect(await macros.expand('${A}/INFO(x)/${B}', ['A'], extra)).toBe(`a/${encodeURIComponent('info:x')}/\${B}`);
    expect(await macros.expand('${A}/INFO(x)')).toBe('a/INFO(x)');
  });

  it('registers every page macro that consent URLs may use', async () => {
    const { macros } = setUp();
    const template = PAGE_MACROS.map((name) => `\${${name}}`).join('|');
    const expanded = await macros.expand(template, PAGE_MACROS);
    expect(expanded.split('|').every((value, index) => value !== `\${${PAGE_MACROS[index]}}`)).toBe(true);
  });

  it('URL-encodes values', async () => {
    const { macros } = setUp();
    macros.register('INFO', () => '{"a":"x y&z/ü"}');
    expect(await macros.expand('?i=${INFO}')).toBe(`?i=${encodeURIComponent('{"a":"x y&z/ü"}')}`);
  });

  it('waits for asynchronous resolvers', async () => {
    const { macros } = setUp();
    macros.register('LATER', () => new Promise((resolve) => setTimeout(() => resolve('done'), 1)));
    expect(await macros.expand('${LATER}!')).toBe('done!');
  });

  it('expands a failing resolver to nothing and reports macro-failed', async () => {
    const { macros, reports } = setUp();
    macros.register('BROKEN', () => {
      throw new Error('no data');
    });
    macros.register('REJECTED', () => Promise.reject(new Error('later')));
    expect(await macros.expand('a${BROKEN}b${REJECTED}c')).toBe('abc');
    expect(reports).toEqual([
      { code: 'macro-failed', expected: 'BROKEN to resolve', got: '"Error: no data"' },
      { code: 'macro-failed', expected: 'REJECTED to resolve', got: '"Error: later"' },
    ]);
  });
});
