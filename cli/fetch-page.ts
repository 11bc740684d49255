/**
 * A page fetched by URL within limits (docs/validator.md, "Fetching a URL"): http(s) only, at
 * most 5 redirects, none to a loopback, private or link-local address, at most 5 MB of body
 * counted after decompression (a small gzip answer cannot fill the memory), 10 s in all. The
 * address check is made where the connection is made (the socket's `lookup`), so a name that
 * resolves differently the second time cannot slip past it.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import { lookup } from 'node:dns';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isPrivateAddress } from './private-address.ts';

export const FETCH_TIMEOUT_MS = 10_000;
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;
const maxRedirects = 5;

export type FetchOptions = {
  /** Follow redirects to loopback and private addresses too. For tests on loopback; the CLI never sets it. */
  readonly allowPrivateRedirects?: boolean;
  /** Loopback or private hosts a redirect may go to (the audit's `--allow-private`); a host covers its subdomains. */
  readonly allowPrivateHosts?: readonly string[];
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
};

export type FetchedPage = { readonly url: string; readonly text: string };

/** A refusal with its short reason, the `got` of the validator's `validate-input-unreadable`. */
export class FetchRefused extends Error {}

const guardedLookup: LookupFunction = (hostname, options, callback) =>
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    const refused = error ? undefined : addresses.find(({ address }) => isPrivateAddress(address));
    if (error || refused === undefined) return (callback as (...args: unknown[]) => void)(error, addresses);
    callback(new FetchRefused(`redirect to ${hostname} = ${refused.address} (loopback/private)`), '', 0);
  });

function get(url: URL, isGuarded: boolean, signal: AbortSignal): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new FetchRefused(`redirect to ${url.protocol} (not http(s))`));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isGuarded && isIP(host) && isPrivateAddress(host)) {
    return Promise.reject(new FetchRefused(`redirect to ${host} (loopback/private)`));
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,*/*;q=0.5' };
  return new Promise((resolve, reject) => {
    const request = send(url, { signal, headers, ...(isGuarded ? { lookup: guardedLookup } : {}) }, resolve);
    request.on('error', reject);
    request.end();
  });
}

function decoded(response: IncomingMessage): AsyncIterable<Buffer> {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = () => new FetchRefused(`body over ${maxBytes / 1024 / 1024} MB`);
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of decoded(response)) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Fetches `target` (an http(s) URL) within the limits; throws FetchRefused, an HTTP status or a time-out. */
export async function fetchPage(target: string, options: FetchOptions = {}): Promise<FetchedPage> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await follow(new URL(target), signal, options);
  } catch (error) {
    if (signal.aborted) throw new FetchRefused(`no whole page within ${timeoutMs / 1000} s`);
    throw error;
  }
}

const isAllowedHost = (hostname: string, hosts: readonly string[] = []) => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
};

async function follow(start: URL, signal: AbortSignal, options: FetchOptions): Promise<FetchedPage> {
  let url = start;
  for (let redirects = 0; ; redirects += 1) {
    const isGuarded =
      redirects > 0 &&
      options.allowPrivateRedirects !== true &&
      !isAllowedHost(url.hostname, options.allowPrivateHosts);
    const response = await get(url, isGuarded, signal);
    const location = response.headers.location;
    if (response.statusCode! >= 300 && response.statusCode! < 400 && location) {
      response.resume();
      if (redirects === maxRedirects) throw new FetchRefused(`more than ${maxRedirects} redirects`);
      url = new URL(location, url);
      continue;
    }
    if (response.statusCode! < 200 || response.statusCode! >= 300) {
      response.resume();
      throw new Error(`HTTP ${response.statusCode}`);
    }
    return { url: url.href, text: await readBody(response, options.maxBytes ?? FETCH_MAX_BYTES) };
  }
}
