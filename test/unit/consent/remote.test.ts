import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_TIMEOUT_MS,
  checkConsent,
  checkRequestOf,
  notifyUpdate,
  parseCheckResponse,
  updateRequestOf,
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
      expireCache: false,
      sharedData: undefined,
      purposeConsents: undefined,
      consentMetadata: undefined,
      tcfPolicyVersion: undefined,
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
    ['consentStateValue', 'maybe'],
    ['consentString', 5],
    ['expireCache', 'yes'],
    ['sharedData', { nested: {} }],
    ['purposeConsents', { ads: 'yes' }],
    ['consentMetadata', 'x'],
    ['tcfPolicyVersion', 2.2],
  ])('drops an invalid %s with a diagnostic', (key, bad) => {
    const { value, diagnostics } = parse({ consentRequired: true, [key]: bad });
    expect(value?.consentRequired).toBe(true);
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-response-field']);
    expect(diagnostics[0]?.expected).toContain(key);
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

describe('updateRequestOf', () => {
  it('builds the update body from the cached decision', () => {
    const saved = { version: 1, state: 'accepted', purposeConsents: { ads: false }, tcfPolicyVersion: 4 } as const;
    expect(JSON.parse(JSON.stringify(updateRequestOf('site', 'user-1', saved)))).toEqual({
      consentInstanceId: 'site',
      pageUserId: 'user-1',
      consentStateValue: 'accepted',
      purposeConsents: { ads: false },
      tcfPolicyVersion: 4,
    });
  });
});

describe('notifyUpdate', () => {
  afterEach(() => vi.unstubAllGlobals());
  const body = updateRequestOf('site', 'u', { version: 1, state: 'accepted' });

  it('POSTs with credentials and keepalive', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const report = vi.fn();
    await notifyUpdate('https://cmp.example/update', body, report);
    expect(fetch.mock.calls[0]).toMatchObject(['https://cmp.example/update', { method: 'POST', credentials: 'include', keepalive: true }]);
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
    await notifyUpdate('/update', body, report);
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ code: 'consent-update-failed', got: expect.stringContaining(cause) }));
  });
});
