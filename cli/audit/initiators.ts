/**
 * Initiator chains: who caused a request or a write, as far as Chromium tells. The first link is
 * the immediate initiator (the script on top of the stack, or the document whose parser made
 * the request); each next link is what loaded the previous one, up to the page. A chain that
 * reaches the page names the tag on the page that started it all (the link before the page).
 */
import type { LoggedRequest } from './network-log.ts';
import { RECORDER_URL } from './recorder-script.ts';

const MAX_LINKS = 12;

/** The scripts on an `Error().stack`, innermost first, the recorder's own frames left out. */
export function stackUrls(stack: string): string[] {
  const urls = stack.split('\n').flatMap((line) => {
    const found = [...line.matchAll(/((?:https?|file):\/\/[^\s()]+?):\d+:\d+/g)].map((match) => match[1] ?? '');
    return found.slice(-1);
  });
  return urls.filter((url) => url && !url.includes(RECORDER_URL));
}

/** The request that loaded `url` (its document or script), the first one if several did. */
const loaderOf = (url: string, requests: readonly LoggedRequest[]) => requests.find((request) => request.url === url);

/** What loaded `url`, then what loaded that, ... (`url` itself is not included). */
export function chainAbove(url: string, requests: readonly LoggedRequest[]): string[] {
  const chain: string[] = [];
  let current = url;
  while (chain.length < MAX_LINKS) {
    const loader = loaderOf(current, requests);
    const next = loader && immediateInitiator(loader);
    if (!next || next === current || chain.includes(next)) break;
    chain.push(next);
    current = next;
  }
  return chain;
}

/** The script on top of the stack, the parsing document, or the request's own document. */
export function immediateInitiator(request: LoggedRequest): string | null {
  const [first] = request.initiator.urls;
  if (first) return first;
  return request.documentUrl && request.documentUrl !== request.url ? request.documentUrl : null;
}

/** The chain of a request: its immediate initiator, then what loaded it, up to the page. */
export function requestChain(request: LoggedRequest, requests: readonly LoggedRequest[]): string[] {
  const first = immediateInitiator(request);
  return first ? [first, ...chainAbove(first, requests)] : [];
}

/** The chain of a write made by the script `writer`. */
export const writerChain = (writer: string, requests: readonly LoggedRequest[]): string[] => [
  writer,
  ...chainAbove(writer, requests),
];
