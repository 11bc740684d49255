/**
 * Raw TCP clients for the reliability suite: a slow client (slowloris) that trickles a request
 * byte by byte and reports when and how the server cut it off, and a plain HTTP client that
 * times each answer.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';

export type SlowClientResult = {
  /** Milliseconds from connecting until the server closed the connection (or the client gave up). */
  readonly closedAfterMs: number;
  /** Whether the server closed it (false: the client gave up at `giveUpMs`). */
  readonly closedByServer: boolean;
  /** Bytes the client managed to send. */
  readonly sent: number;
  /** Everything the server answered. */
  readonly answer: string;
};

/**
 * Connects, writes `head` at once, then one byte of `trickle` every `intervalMs` (repeating it
 * when it runs out), never finishing the request; gives up after `giveUpMs`.
 */
export function slowClient(
  port: number,
  head: string,
  trickle: string,
  intervalMs: number,
  giveUpMs: number,
): Promise<SlowClientResult> {
  return new Promise((resolve) => {
    const started = Date.now();
    let sent = 0;
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    let giveUp: NodeJS.Timeout | undefined;
    const socket: Socket = connect(port, '127.0.0.1', () => {
      if (head) {
        socket.write(head);
        sent += head.length;
      }
      if (!trickle) return;
      let index = 0;
      timer = setInterval(() => {
        if (socket.destroyed || !socket.writable) return;
        socket.write(trickle[index++ % trickle.length]!);
        sent++;
      }, intervalMs);
    });
    const finish = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs: Date.now() - started, closedByServer, sent, answer });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
    giveUp = setTimeout(() => finish(false), giveUpMs);
  });
}

/** One HTTP request on a fresh connection; resolves with the status, body and time taken. */
export function timedRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: performance.now() - started }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A request whose body is sent chunked (no Content-Length), in `chunks` pieces. */
export function chunkedRequest(
  port: number,
  options: { method: string; path: string; headers: Record<string, string>; chunks: string[] },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: { ...options.headers, 'transfer-encoding': 'chunked' },
        agent: false,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    // The server may answer body-too-large and close before the last chunk: that is the point.
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    for (const chunk of options.chunks) request.write(chunk);
    request.end();
  });
}

/** The HTTP status line and JSON body of a raw answer ('' and null when there is none). */
export function parseRawAnswer(answer: string): { statusLine: string; body: unknown } {
  const statusLine = answer.split('\r\n')[0] ?? '';
  const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  return { statusLine, body };
}
