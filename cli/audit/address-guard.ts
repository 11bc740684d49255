/**
 * The address guard: every request of a journey's browser context (every frame, popup and worker,
 * every redirect hop, WebSockets and HTTPS tunnels) goes through this proxy, which resolves the
 * destination host itself, refuses a loopback or private address, or a host it cannot resolve,
 * and connects only to the addresses it checked (so a second lookup cannot lead elsewhere). The
 * rule is `refusalOf` (destination.ts); a refused request never reaches its server: a plain
 * request is answered 403 by the guard, a tunnel is refused. Each refusal is reported.
 */
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { resolveHost } from './address.ts';
import { type DestinationPolicy, refusalOf } from './destination.ts';

export type BlockedRequest = { readonly url: string; readonly reason: string; readonly time: number };

export type AddressGuard = {
  /** The proxy's address, for the context's `proxy.server`. */
  readonly server: string;
  close(): Promise<void>;
};

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

const endToEnd = (raw: readonly string[]): string[] =>
  raw.flatMap((value, index) =>
    index % 2 === 1 || HOP_BY_HOP.has(value.toLowerCase()) ? [] : [value, raw[index + 1] ?? ''],
  );

type Lookup = (host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => void;

/** A `lookup` that answers with the checked addresses only. */
const pinned =
  (addresses: readonly LookupAddress[]): Lookup =>
  (_host, options, callback) => {
    const [first] = addresses;
    if (options.all) callback(null, addresses);
    else callback(null, first?.address, first?.family);
  };

export async function startAddressGuard(
  policy: DestinationPolicy,
  onBlocked: (blocked: BlockedRequest) => void,
): Promise<AddressGuard> {
  const sockets = new Set<Socket>();
  const check = async (host: string, port: number, url: string) => {
    const addresses = await resolveHost(host);
    const reason = refusalOf({ host, port, addresses }, policy);
    if (reason === null && addresses) return addresses;
    onBlocked({ url, reason: reason ?? 'no address', time: Date.now() });
    return null;
  };
  const server = createServer((request, response) => {
    forward(request, response, check).catch(() => response.destroy());
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    tunnel(request, client, head, check).catch(() => client.destroy());
  });
  // Chromium tunnels WebSockets through CONNECT; an upgrade sent as a plain request is not let through.
  server.on('upgrade', (_request: IncomingMessage, socket: Socket) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type Check = (host: string, port: number, url: string) => Promise<readonly LookupAddress[] | null>;

async function forward(request: IncomingMessage, response: ServerResponse, check: Check): Promise<void> {
  const url = URL.canParse(request.url ?? '') ? new URL(request.url ?? '') : null;
  if (url?.protocol !== 'http:') {
    response.writeHead(400).end();
    return;
  }
  const addresses = await check(url.hostname, Number(url.port || 80), url.href);
  if (!addresses) {
    response
      .writeHead(403, { 'content-type': 'text/plain' })
      .end('blocked by the page audit: a loopback or private address');
    return;
  }
  const upstream = httpRequest({
    host: url.hostname,
    port: Number(url.port || 80),
    method: request.method,
    path: `${url.pathname}${url.search}`,
    headers: endToEnd(request.rawHeaders),
    lookup: pinned(addresses) as never,
    setHost: false,
  });
  upstream.on('response', (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
    answer.pipe(response);
  });
  upstream.on('error', () => (response.headersSent ? response.destroy() : response.writeHead(502).end()));
  response.on('close', () => upstream.destroy());
  request.pipe(upstream);
}

async function tunnel(request: IncomingMessage, client: Socket, head: Buffer, check: Check): Promise<void> {
  const target = URL.canParse(`http://${request.url ?? ''}`) ? new URL(`http://${request.url ?? ''}`) : null;
  const port = Number(target?.port || 443);
  const addresses = target ? await check(target.hostname, port, `https://${target.host}`) : null;
  if (!target || !addresses) {
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return;
  }
  const upstream = connect({ host: target.hostname, port, lookup: pinned(addresses) as never });
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
}
