/**
 * Where the page comes from: a file, an http(s) URL (fetched once within the limits of
 * fetch-page.ts) or stdin (`-`). Files and stdin resolve relative URLs against
 * `https://example.invalid/`.
 */
import { readFile } from 'node:fs/promises';
import { type FetchOptions, FetchRefused, fetchPage } from './fetch-page.ts';
import { FILE_BASE_URL } from './page.ts';

export type Source = { readonly name: string; readonly text: string; readonly baseUrl: string };

async function readStream(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** Throws (with a short reason) when the source cannot be read. */
export async function readSource(
  target: string,
  stdin: AsyncIterable<string | Uint8Array>,
  fetchOptions?: FetchOptions,
): Promise<Source> {
  if (target === '-') return { name: '<stdin>', text: await readStream(stdin), baseUrl: FILE_BASE_URL };
  if (/^https?:\/\//i.test(target)) {
    const { url, text } = await fetchPage(target, fetchOptions);
    return { name: target, text, baseUrl: url };
  }
  return { name: target, text: await readFile(target, 'utf8'), baseUrl: FILE_BASE_URL };
}

/** A short reason for a failed read: `ENOENT`, `HTTP 404`, a refused fetch's reason. */
export function describeReadError(error: unknown): string {
  if (error instanceof FetchRefused) return error.message;
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return code ?? (error instanceof Error ? `${error.message}${cause}` : String(error));
}
