/**
 * Request ids: the incoming `X-Request-Id` is kept only when it is short and plain (1-64 of
 * `A-Z a-z 0-9 . _ : -`), so a client cannot push long or forged text into every log line;
 * anything else gets a fresh UUID.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const plainRequestId = /^[A-Za-z0-9._:-]{1,64}$/;

export function isPlainRequestId(value: unknown): value is string {
  return typeof value === 'string' && plainRequestId.test(value);
}

/** Fastify `genReqId`: the client's id when plain, else a new one. */
export function createRequestId(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return isPlainRequestId(header) ? header : randomUUID();
}
