/**
 * The validator's URL limits, applied to every page the audit opens in the top frame: http(s)
 * only (or a local file, when a file was asked for), no redirect to a loopback or private
 * address (nor to a host whose address cannot be resolved) unless the reader asked for such an
 * address, at most 5 MB of document. Each redirect hop is checked before it is requested
 * (DevTools `Fetch` interception of top-frame documents); an oversized document is stopped as
 * soon as it passes the limit, and `refused()` resolves at that moment, so the visit ends then
 * (visit.ts) rather than waiting for a document that, once stopped, may never finish loading.
 * Every other request is held to the address guard (address-guard.ts).
 */
import type { CDPSession } from 'playwright-core';
import { classifyHost, isPrivateHost } from './address.ts';

export const MAX_PAGE_BYTES = 5 * 1024 * 1024;

export type NavigationGuard = {
  /** Why a top-frame navigation since the latest `reset` was stopped, or null. */
  refusal(): string | null;
  /** Resolves with that reason as soon as there is one (never, if there is none). */
  refused(): Promise<string>;
  reset(): void;
};

type Paused = { requestId: string; frameId: string; request: { url: string } };

async function refuse(url: URL, start: URL, isStartPrivate: boolean): Promise<string | null> {
  if (url.protocol === 'file:' && start.protocol === 'file:') return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `a redirect to ${url.protocol} (only http and https)`;
  if (isStartPrivate || url.host === start.host) return null;
  const kind = await classifyHost(url.hostname);
  if (kind === 'private') return `a redirect to the loopback or private address ${url.host}`;
  return kind === 'unresolved' ? `a redirect to ${url.host}, whose address could not be resolved` : null;
}

export async function guardNavigation(session: CDPSession, start: URL): Promise<NavigationGuard> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const mainFrameId = frameTree.frame.id;
  const isStartPrivate = start.protocol === 'file:' || (await isPrivateHost(start.hostname));
  const documents = new Map<string, number>();
  let refusal: string | null = null;
  let announce = (_reason: string) => {};
  let refused = new Promise<string>((resolve) => (announce = resolve));
  const stop = (reason: string) => {
    refusal = reason;
    announce(reason);
  };
  session.on('Fetch.requestPaused', async ({ requestId, frameId, request }: Paused) => {
    const reason = frameId === mainFrameId ? await refuse(new URL(request.url), start, isStartPrivate) : null;
    if (reason) stop(reason);
    const command = reason
      ? session.send('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' })
      : session.send('Fetch.continueRequest', { requestId });
    await command.catch(() => undefined);
  });
  session.on(
    'Network.requestWillBeSent',
    ({ requestId, frameId, type }: { requestId: string; frameId?: string; type?: string }) => {
      if (type === 'Document' && frameId === mainFrameId && !documents.has(requestId)) documents.set(requestId, 0);
    },
  );
  const count = (requestId: string, bytes: number) => {
    const total = documents.get(requestId);
    if (total === undefined) return;
    documents.set(requestId, total + bytes);
    if (total + bytes > MAX_PAGE_BYTES && refusal === null) {
      stop(`a document over ${MAX_PAGE_BYTES / 1024 / 1024} MB`);
      session.send('Page.stopLoading').catch(() => undefined);
    }
  };
  // A declared length over the limit stops the document at once; otherwise the bytes are counted.
  session.on(
    'Network.responseReceived',
    ({ requestId, response }: { requestId: string; response: { headers: Record<string, string> } }) => {
      const length = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-length')?.[1];
      const declared = length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : 0;
      if (declared > MAX_PAGE_BYTES) count(requestId, declared);
    },
  );
  session.on('Network.dataReceived', ({ requestId, dataLength }: { requestId: string; dataLength: number }) =>
    count(requestId, dataLength),
  );
  await session.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Request' }] });
  return {
    refusal: () => refusal,
    refused: () => refused,
    reset: () => {
      refusal = null;
      refused = new Promise<string>((resolve) => (announce = resolve));
    },
  };
}
