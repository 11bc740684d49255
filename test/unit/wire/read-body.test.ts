import { describe, expect, it } from 'vitest';
import { readBody } from '../../../src/wire/read-body.ts';

const encoder = new TextEncoder();

/**
 * A Response whose body streams `chunks`, then (unless `isEndless`) ends; with `isEndless` it
 * streams 64 KB chunks for as long as it is read. `pulled` counts the chunks handed out,
 * `cancelled` tells whether the reader cancelled the rest.
 */
function streamed(chunks: Uint8Array[], { isEndless = false } = {}) {
  const state = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled] ?? (isEndless ? new Uint8Array(64 * 1024).fill(32) : undefined);
      if (chunk) {
        state.pulled++;
        controller.enqueue(chunk);
      } else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { response: new Response(body), state };
}

describe('readBody', () => {
  it('reads a streamed body as UTF-8 text, a character split across chunks included', async () => {
    const bytes = encoder.encode('{"name":"Zoë ✓"}');
    const { response } = streamed([bytes.slice(0, 11), bytes.slice(11, 13), bytes.slice(13)]);
    expect(await readBody(response, 1024)).toBe('{"name":"Zoë ✓"}');
  });

  it('reads a body of exactly the cap', async () => {
    const { response } = streamed([encoder.encode('x'.repeat(100))]);
    expect(await readBody(response, 100)).toBe('x'.repeat(100));
  });

  it('stops past the cap, cancels the rest of an endless body, and answers with one diagnostic', async () => {
    const { response, state } = streamed([], { isEndless: true });
    expect(await readBody(response, 1024 * 1024)).toEqual({
      code: 'remote-answer-too-large',
      expected: 'at most 1048576 bytes',
      got: '"more from "',
    });
    expect(state.cancelled).toBe(true);
    // 16 chunks of 64 KB are the cap; the 17th passes it, and nothing is pulled after it.
    expect(state.pulled).toBe(17);
  });

  it('reads an answer without a body as empty', async () => {
    expect(await readBody(new Response(null, { status: 204 }), 10)).toBe('');
  });

  it('rejects as its body does when the call is aborted mid-body (the time-out)', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(encoder.encode('{"slow":'));
        controller.signal.addEventListener('abort', () => stream.error(controller.signal.reason));
      },
    });
    const reading = readBody(new Response(body), 1024);
    controller.abort(new DOMException('aborted', 'AbortError'));
    await expect(reading).rejects.toThrow('aborted');
  });
});

describe('readBody with a Content-Length', () => {
  const sized = (text: string, length: number) => new Response(text, { headers: { 'content-length': String(length) } });

  it('takes an answer within the cap whole', async () => {
    expect(await readBody(sized('{"a":1}', 7), 100)).toBe('{"a":1}');
  });

  it('refuses an answer whose body is larger than its declared length allowed (a compressed answer decoded)', async () => {
    expect(await readBody(sized('x'.repeat(200), 50), 100)).toMatchObject({ code: 'remote-answer-too-large' });
  });

  it('streams an answer that declares more than the cap, and stops at the cap', async () => {
    expect(await readBody(sized('x'.repeat(200), 200), 100)).toMatchObject({ code: 'remote-answer-too-large' });
  });
});
