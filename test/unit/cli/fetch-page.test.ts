/** The validator's URL fetch on real loopback servers: size after decompression, time in all, schemes and redirect targets. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FETCH_MAX_BYTES, fetchPage } from '../../../cli/fetch-page.ts';
import { isPrivateAddress } from '../../../cli/private-address.ts';
import { runCli } from '../../../cli/run-cli.ts';
import { VALID_PAGE } from './pages.ts';

/** More than the limit once inflated, a few KB as sent. */
const bomb = gzipSync(Buffer.alloc(FETCH_MAX_BYTES + 1, 'a'));

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/page': (_request, response) => response.end(VALID_PAGE),
  '/bomb': (_request, response) => {
    response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' });
    response.end(bomb);
  },
  '/long': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const send = () => {
      while (response.write(chunk)) if (response.writableLength > 8 * 1024 * 1024) break;
    };
    response.on('drain', send);
    send();
  },
  '/declared': (_request, response) => {
    response.writeHead(200, { 'content-length': String(FETCH_MAX_BYTES + 1) });
    response.write('<!doctype html>');
  },
  '/slow': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    const timer = setInterval(() => response.write('<p>'), 50);
    response.on('close', () => clearInterval(timer));
  },
  '/to-loopback': (_request, response) => redirect(response, `http://127.0.0.1:${port}/page`),
  '/to-localhost': (_request, response) => redirect(response, `http://localhost:${port}/page`),
  '/to-private': (_request, response) => redirect(response, 'http://10.1.2.3/page'),
  '/to-mapped': (_request, response) => redirect(response, 'http://[::ffff:127.0.0.1]/page'),
  '/to-file': (_request, response) => redirect(response, 'file:///etc/passwd'),
  '/loop': (_request, response) => redirect(response, '/loop'),
};
const redirect = (response: ServerResponse, location: string) => response.writeHead(302, { location }).end();

let server: Server;
let port = 0;
const at = (path: string) => `http://127.0.0.1:${port}${path}`;

beforeAll(async () => {
  server = createServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('validator URL fetch', () => {
  it('reads a page from the address it was given, loopback included', async () => {
    expect(await fetchPage(at('/page'))).toEqual({ url: at('/page'), text: VALID_PAGE });
  });

  it('stops at 5 MB after decompression: a gzip answer of a few KB that inflates past it, a long body, a long Content-Length', async () => {
    expect(bomb.length).toBeLessThan(10_000);
    await expect(fetchPage(at('/bomb'))).rejects.toThrow('body over 5 MB');
    await expect(fetchPage(at('/long'))).rejects.toThrow('body over 5 MB');
    await expect(fetchPage(at('/declared'))).rejects.toThrow('body over 5 MB');
  }, 30_000); // three 5 MB reads: slow on a loaded machine

  it('gives up on a body that keeps coming once the time in all is over', async () => {
    const started = performance.now();
    await expect(fetchPage(at('/slow'), { timeoutMs: 300 })).rejects.toThrow('no whole page within 0.3 s');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a redirect to a loopback, private or mapped address, by literal or by name, and to another scheme', async () => {
    await expect(fetchPage(at('/to-loopback'))).rejects.toThrow('redirect to 127.0.0.1 (loopback/private)');
    await expect(fetchPage(at('/to-localhost'))).rejects.toThrow(
      /^redirect to localhost = (127\.0\.0\.1|::1) \(loopback\/private\)$/,
    );
    await expect(fetchPage(at('/to-private'))).rejects.toThrow('redirect to 10.1.2.3 (loopback/private)');
    await expect(fetchPage(at('/to-mapped'))).rejects.toThrow('(loopback/private)');
    await expect(fetchPage(at('/to-file'))).rejects.toThrow('redirect to file: (not http(s))');
  });

  it('follows loopback redirects only with the tests option, at most 5', async () => {
    expect(await fetchPage(at('/to-loopback'), { allowPrivateRedirects: true })).toEqual({
      url: at('/page'),
      text: VALID_PAGE,
    });
    await expect(fetchPage(at('/loop'), { allowPrivateRedirects: true })).rejects.toThrow('more than 5 redirects');
  });

  it('knows the private ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('reports a refused fetch as the unreadable input, through the CLI', async () => {
    let output = '';
    const code = await runCli([at('/to-loopback'), '--format', 'json'], {
      stdin: (async function* () {})(),
      write: (text) => (output += text),
      writeError: () => {},
    });
    expect(code).toBe(1);
    expect(JSON.parse(output)[0]).toMatchObject({
      code: 'validate-input-unreadable',
      message: 'expected a readable page or config, got "redirect to 127.0.0.1 (loopback/private)"',
    });
  });
});
