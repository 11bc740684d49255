/**
 * The one reader of a remote answer's body (docs/reliability.md, "Byte caps"): the body is read
 * chunk by chunk and decoded as UTF-8 (as `Response.text()` does), and once past `maxBytes` the
 * read stops, the rest of the body is cancelled and the answer is one `remote-answer-too-large`
 * diagnostic. It runs within the call's time-out: the fetch's abort signal errors the body, so a
 * slow body fails as a late answer does.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** The body of `response` as text; a diagnostic when it is larger than `maxBytes`; rejects as its stream does. */
export async function readBody(response: Response, maxBytes: number): Promise<string | Diagnostic> {
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
  return diagnostic('remote-answer-too-large', `at most ${maxBytes} bytes`, `more from ${response.url}`);
}
