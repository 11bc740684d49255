import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_ANSWER_MAX_BYTES,
  CHECK_TIMEOUT_MS,
  checkConsent,
  checkRequestOf,
  type Network,
  notifyUpdate,
  UPDATE_ANSWER_MAX_BYTES,
} from '../../../src/consent/remote.ts';

/** A 2xx answer whose body streams spaces for as long as it is read; `state.cancelled` once its reader gave up. */
function endlessAnswer() {
  const state = { cancelled: false, bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.bytes += 64 * 1024;
      controller.enqueue(new Uint8Array(64 * 1024).fill(32));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body, { status: 200 }), state };
}

/** A fetch whose answer starts at once and whose body stalls until the call's signal aborts it, as a browser's does. */
const stalledBody = (_url: string, init: RequestInit) =>
  Promise.resolve(
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"consentRequired":'));
          init.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      }),
    ),
  );

/** The page's own network, read at call time so stubbed globals and fake timers apply. */
const network: Network = {
  fetch: (...args) => globalThis.fetch(...args),
  clock: {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as number),
  },
};

describe('checkConsent', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
  const body = checkRequestOf('site', null, 'eea');

  it('POSTs the JSON body with credentials', async () => {
    const fetch = vi.fn(async () => new Response('{"consentRequired":false}'));
    vi.stubGlobal('fetch', fetch);
    const result = await checkConsent(network, 'https://cmp.example/check', body, undefined);
    expect(result.value?.consentRequired).toBe(false);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://cmp.example/check');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include' });
    expect(JSON.parse(init.body as string)).toEqual({
      consentInstanceId: 'site',
      consentStateValue: 'unknown',
      matchedGeoGroup: 'eea',
      isDirty: false,
    });
  });

  it('fails with the HTTP status on a non-2xx answer', async () => {
    vi.stubGlobal('fetch', async () => new Response('oops', { status: 503 }));
    const result = await checkConsent(network, '/check', body, undefined);
    expect(result.value).toBeNull();
    expect(result.diagnostics[0]).toMatchObject({ code: 'consent-check-failed', got: '"HTTP 503"' });
  });

  it('fails on a network or CORS error', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await checkConsent(network, '/check', body, undefined);
    expect(result.diagnostics[0]?.got).toContain('network');
  });

  it('gives up after 10 s without an answer', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const pending = checkConsent(network, '/check', body, undefined);
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

describe('checkConsent byte cap', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
  const body = checkRequestOf('site', null, 'eea');

  it('fails closed on an endless answer, with one diagnostic, once past the cap', async () => {
    const { response, state } = endlessAnswer();
    vi.stubGlobal('fetch', async () => response);
    const result = await checkConsent(network, '/check', body, undefined);
    expect(result).toEqual({
      value: null,
      diagnostics: [
        expect.objectContaining({
          code: 'remote-answer-too-large',
          expected: `at most ${CHECK_ANSWER_MAX_BYTES} bytes`,
        }),
      ],
    });
    expect(state.cancelled).toBe(true);
    // Read to one chunk past the cap; the stream pulls one more ahead.
    expect(state.bytes).toBeLessThanOrEqual(CHECK_ANSWER_MAX_BYTES + 2 * 64 * 1024);
  });

  it('gives up on a body still arriving after 10 s', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', stalledBody);
    const pending = checkConsent(network, '/check', body, undefined);
    await vi.advanceTimersByTimeAsync(CHECK_TIMEOUT_MS);
    expect((await pending).diagnostics).toEqual([
      expect.objectContaining({ code: 'consent-check-failed', got: '"no answer within 10 s"' }),
    ]);
  });
});

describe('checkRequestOf', () => {
  it('sends the cached decision', () => {
    const saved = {
      version: 2,
      time: 1,
      state: 'rejected',
      consentString: 'CP',
      purposeConsents: { ads: true },
    } as const;
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
  const saved = {
    version: 2,
    time: 1,
    state: 'accepted',
    purposeConsents: { ads: false },
    tcfPolicyVersion: 4,
  } as const;

  it('POSTs the update body with credentials and keepalive', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetch);
    const report = vi.fn();
    await notifyUpdate(network, 'https://cmp.example/update', ids, saved, report);
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
    await notifyUpdate(network, '/update', ids, saved, report);
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'consent-update-failed', got: expect.stringContaining(cause) }),
    );
  });

  it('reports an answer past its byte cap, and gives no receipt', async () => {
    const { response, state } = endlessAnswer();
    vi.stubGlobal('fetch', async () => response);
    const report = vi.fn();
    expect(await notifyUpdate(network, '/update', ids, saved, report)).toBeNull();
    expect(report.mock.calls).toEqual([
      [
        expect.objectContaining({
          code: 'remote-answer-too-large',
          expected: `at most ${UPDATE_ANSWER_MAX_BYTES} bytes`,
        }),
      ],
    ]);
    expect(state.cancelled).toBe(true);
  });

  it('gives up after 10 s without an answer, with one diagnostic and no receipt', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const report = vi.fn();
    const pending = notifyUpdate(network, '/update', ids, saved, report);
    await vi.advanceTimersByTimeAsync(CHECK_TIMEOUT_MS);
    expect(await pending).toBeNull();
    expect(report.mock.calls).toEqual([
      [expect.objectContaining({ code: 'consent-update-failed', got: '"no answer within 10 s"' })],
    ]);
    vi.useRealTimers();
  });
});
