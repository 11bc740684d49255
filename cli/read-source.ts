/**
 * Where the page comes from: a file, an http(s) URL (fetched once, 10 s time-out) or stdin
 * (`-`). Files and stdin resolve relative URLs against `https://example.invalid/`.
 */
import { readFile } from 'node:fs/promises';
import { FILE_BASE_URL } from './page.ts';

export type Source = { readonly name: string; readonly text: string; readonly baseUrl: string };

export const FETCH_TIMEOUT_MS = 10_000;

async function readStream(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function fetchPage(url: string): Promise<Source> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return { name: url, text: await response.text(), baseUrl: response.url || url };
}

/** Throws (with a short reason) when the source cannot be read. */
export async function readSource(target: string, stdin: AsyncIterable<string | Uint8Array>): Promise<Source> {
  if (target === '-') return { name: '<stdin>', text: await readStream(stdin), baseUrl: FILE_BASE_URL };
  if (/^https?:\/\//i.test(target)) return fetchPage(target);
  return { name: target, text: await readFile(target, 'utf8'), baseUrl: FILE_BASE_URL };
}

/** A short reason for a failed read: `ENOENT`, `HTTP 404`, `time-out after 10 s`. */
export function describeReadError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return code ?? (error instanceof Error ? `${error.message}${cause}` : String(error));
}
