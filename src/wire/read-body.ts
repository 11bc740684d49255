/**
 * The one reader of a remote answer's body (docs/reliability.md, "Byte caps"). An answer whose
 * `Content-Length` is within `maxBytes` is taken whole (as `Response.text()` would) and decoded only
 * when its decoded size is within the cap too (a compressed answer may decode larger). Any
 * other answer is read chunk by chunk, and once past `maxBytes` the read stops and the rest of
 * the body is cancelled. Either way the text is decoded as UTF-8 (as `Response.text()` does), and
 * an answer over the cap is one `remote-answer-too-large` diagnostic. It runs within the call's
 * time-out: the fetch's abort signal errors the body, so a slow body fails as a late answer does.
 * (A body read to its end through a stream reader can be reported by Chromium as an aborted
 * request when the stream closes before the load completes, and a body taken as a Blob is not
 * kept for the developer tools; a whole read waits for the load and is kept.)
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** The body of `response` as text; a diagnostic when it is larger than `maxBytes`; rejects as its stream does. */
export async function readBody(response: Response, maxBytes: number): Promise<string | Diagnostic> {
  const tooLarge = () =>
    diagnostic('remote-answer-too-large', `at most ${maxBytes} bytes`, `more from ${response.url}`);
  // Without the header (NaN, never within the cap) the answer is streamed.
  if (Number(response.headers.get('content-length') ?? NaN) <= maxBytes) {
    const bytes = await response.arrayBuffer();
    return bytes.byteLength <= maxBytes ? new TextDecoder().decode(bytes) : tooLarge();
  }
  const reader = response.body?.getReader();
  const chunks: BlobPart[] = [];
  let size = 0;
  while (reader && size <= maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  if (size <= maxBytes) return new Blob(chunks).text();
  reader?.cancel().catch(() => {});
  return tooLarge();
}
