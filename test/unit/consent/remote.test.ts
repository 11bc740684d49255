import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_TIMEOUT_MS,
  checkConsent,
  checkRequestOf,
  notifyUpdate,
  parseCheckResponse,
} from '../../../src/consent/remote.ts';

const parse = (body: unknown, prefix?: string) => parseCheckResponse(typeof body === 'string' ? body : JSON.stringify(body), prefix);

describe('parseCheckResponse', () => {
  it('reads every field', () => {
    const { value, diagnostics } = parse({
      consentRequired: true,
      consentStateValue: 'accepted',
      consentString: 'CP',
      expireCache: true,
      sharedData: { tier: 'gold', n: 1, b: false },
      purposeConsents: { ads: true },
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 4,
    });
    expect(diagnostics).toEqual([]);
    expect(value).toEqual({
      consentRequired: true,
      consentStateValue: 'accepted',
      consentString: 'CP',
      expireCache: true,
      sharedData: { tier: 'gold', n: 1, b: false },
      purposeConsents: { ads: true },
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 4,
    });
  });

  it('reads a null consentRequired as missing', () => {
    expect(parse({ consentRequired: null }).value?.consentRequired).toBe(false);
  });

  it('treats a missing consentRequired as not required', () => {
    expect(parse({ consentStateValue: 'accepted' }).value).toMatchObject({ consentRequired: false, consentStateValue: 'accepted' });
  });

  it('reads the legacy promptIfUnknown when consentRequired is missing', () => {
    expect(parse({ promptIfUnknown: true }).value?.consentRequired).toBe(true);
  });

  it('defaults the optional fields', () => {
    expect(parse({ consentRequired: true }).value).toEqual({
      consentRequired: true,
      consentStateValue: null,
      consentString: undefined,
      purposeConsents: undefined,
    });
  });

  it('reads a null or empty consentString as none', () => {
    expect(parse({ consentRequired: true, consentString: null }).value?.consentString).toBeUndefined();
    expect(parse({ consentRequired: true, consentString: '' }).value?.consentString).toBeUndefined();
  });

  it('accepts the seed spelling purposeConsent', () => {
    expect(parse({ consentRequired: true, purposeConsent: { ads: false } }).value?.purposeConsents).toEqual({ ads: false });
  });

  it('strips the xssiPrefix', () => {
    expect(parse(`)]}'\n{"consentRequired":true}`, ")]}'\n").value?.consentRequired).toBe(true);
  });

  it('reads a body without the configured prefix as it is', () => {
    expect(parse('{"consentRequired":true}', ")]}'").value?.consentRequired).toBe(true);
  });

  it.each([
    ['invalid JSON', 'not json', 'invalid JSON'],
    ['a JSON array', '[1]', 'no JSON object'],
    ['a non-boolean consentRequired', { consentRequired: 'yes' }, 'consentRequired'],
  ])('fails on %s', (_, body, cause) => {
    const { value, diagnostics } = parse(body);
    expect(value).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-check-failed']);
    expect(diagnostics[0]?.got).toContain(cause);
  });

  it.each([
    ['consentStateValue', 'maybe', null],
    ['consentStateValue', 1, null],
    ['consentString', 5, undefined],
    ['expireCache', 'yes', undefined],
    ['sharedData', 'gold', undefined],
    ['purposeConsents', [true], undefined],
    ['consentMetadata', 'x', undefined],
    ['tcfPolicyVersion', '2', undefined],
  ])('ignores a mistyped %s (%j)', (key, bad, expected) => {
    const { value, diagnostics } = parse({ consentRequired: true, [key]: bad });
    expect(value?.consentRequired).toBe(true);
    expect((value as Record<string, unknown>)[key]).toBe(expected);
    expect(diagnostics).toEqual([]);
  });
});

describe('checkConsent', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
  const body = checkRequestOf('site', null, 'eea');

  it('POSTs the JSON body with credentials', async () => {
    const fetch = vi.fn(async () => new Response('{"consentRequired":false}'));
    vi.stubGlobal('fetch', fetch);
    const result = await checkConsent('https://cmp.example/check', body, undefined);
    expect(result.value?.consentRequired).toBe(false);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://cmp.example/check');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(init.body as string)).toEqual({ consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: 'eea', isDirty: false });
  });

  it('fails with the HTTP status on a non-2xx answer', async () => {
    vi.stubGlobal('fetch', async () => new Response('oops', { status: 503 }));
    const result = await checkConsent('/check', body, undefined);
    expect(result.value).toBeNull();
    expect(result.diagnostics[0]).toMatchObject({ code: 'consent-check-failed', got: '"HTTP 503"' });
  });

  it('fails on a network or CORS error', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await checkConsent('/check', body, undefined);
    expect(result.diagnostics[0]?.got).toContain('network');
  });

  it('gives up after 10 s without an answer', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const pending = checkConsent('/check', body, undefined);
    await vi.advanceTimersByTimeAsync(CHECK_TIMEOUT_MS - 1);
    let isSettled = false;
    pending.then(() => (isSettled = true));
    await Promise.resolve();
    expect(isSettled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(CHECK_TIMEOUT_MS).toBe(10_000);
    expect(result.value).toBeNull();
    expect(result.diagnostics[0]?.got).toContain('10 s');
  });
});

describe('checkRequestOf', () => {
  it('sends the cached decision', () => {
    const saved = { version: 1, state: 'rejected', consentString: 'CP', purposeConsents: { ads: true } } as const;
    expect(JSON.parse(JSON.stringify(checkRequestOf('site', saved, null)))).toEqual({
      consentInstanceId: 'site',
      consentStateValue: 'rejected',
      consentString: 'CP',
      matchedGeoGroup: null,
      purposeConsents: { ads: true },
      isDirty: false,
    });
  });
});

describe('notifyUpdate', () => {
  afterEach(() => vi.unstubAllGlobals());
  const ids = { consentInstanceId: 'site', pageUserId: 'user-1' };
  const saved = { version: 1, state: 'accepted', purposeConsents: { ads: false }, tcfPolicyVersion: 4 } as const;

  it('POSTs the update body with credentials and keepalive', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const report = vi.fn();
    await notifyUpdate('https://cmp.example/update', ids, saved, report);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://cmp.example/update');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', keepalive: true });
    expect(JSON.parse(init.body as string)).toEqual({
      consentInstanceId: 'site',
      pageUserId: 'user-1',
      consentStateValue: 'accepted',
      purposeConsents: { ads: false },
      tcfPolicyVersion: 4,
    });
    expect(report).not.toHaveBeenCalled();
  });

  it.each([
    ['a non-2xx answer', async () => new Response('', { status: 500 }), 'HTTP 500'],
    [
      'a network error',
      async () => {
        throw new TypeError('x');
      },
      'network',
    ],
  ])('reports %s', async (_, fetch, cause) => {
    vi.stubGlobal('fetch', fetch);
    const report = vi.fn();
    await notifyUpdate('/update', ids, saved, report);
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ code: 'consent-update-failed', got: expect.stringContaining(cause) }));
  });
});
