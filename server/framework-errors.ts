/**
 * Fastify's own errors (router, content-type parsers, body limits) and Node's malformed-request
 * errors, mapped onto the server's error table so that every client-facing error is the
 * `{"error": {"code", "message"}}` envelope with a documented code. A body that is not JSON
 * is bad input like any other: 400 naming `body`, not 415; a body over the route's limit is
 * 413 naming `body`, as HTTP says (docs/server.md, "Errors").
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe } from '../src/wire/diagnostic.ts';
import { errorEnvelope, ErrorCode, HttpError } from './errors.ts';

type FrameworkError = { code?: string; statusCode?: number; message: string };

const isClientStatus = (status: number | undefined): status is number =>
  status !== undefined && status >= 400 && status < 500;

/** A body that is not JSON, by its Content-Type (undefined: no body at all). */
export function unsupportedMediaType(contentType: string | undefined): HttpError {
  return new HttpError(
    400,
    ErrorCode.unsupportedMediaType,
    `body: expected JSON (Content-Type: application/json), got ${describe(contentType)}`,
  );
}

/** Our HttpError for a known or 4xx framework error; null for anything else (a 500). */
export function toHttpError(error: FrameworkError, bodyLimit: number, contentType?: string): HttpError | null {
  if (error instanceof HttpError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType(contentType);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, ErrorCode.bodyTooLarge, `body: expected at most ${bodyLimit} bytes, got more`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new HttpError(400, ErrorCode.invalidJson, `body: expected valid JSON (${error.message})`);
    case 'FST_ERR_BAD_URL':
      return new HttpError(
        400,
        ErrorCode.invalidUrl,
        'URL: expected a path with valid percent-encoding (%XX of UTF-8)',
      );
  }
  if (error.code?.startsWith('FST_') && isClientStatus(error.statusCode)) {
    return new HttpError(error.statusCode, ErrorCode.badRequest, `request refused: ${error.message}`);
  }
  // A path parameter that the router could not decode, decoded again by a handler.
  if (error instanceof URIError) {
    return new HttpError(400, ErrorCode.invalidUrl, 'URL: expected valid percent-encoding (%XX of UTF-8)');
  }
  return null;
}

/** Fastify `frameworkErrors`: errors raised before routing (bad URL, over-long path parameter). */
export function sendFrameworkError(error: FrameworkError, request: FastifyRequest, reply: FastifyReply): void {
  const known = toHttpError(error, 0) ?? new HttpError(400, ErrorCode.badRequest, 'request refused');
  request.log.info({ code: error.code }, known.message);
  // These replies skip the app's hooks: set the headers every response carries here.
  reply.header('X-Request-Id', request.id).header('X-Content-Type-Options', 'nosniff');
  reply.code(known.status).send(errorEnvelope(known.code, known.message));
}

/**
 * Fastify `clientErrorHandler`: a request Node could not parse, or did not receive whole within
 * the request time-out (a slow client), gets the envelope, then the socket closes.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const isTimeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : isTimeout ? 408 : 400;
  const envelope = isTimeout
    ? errorEnvelope(
        ErrorCode.requestTimeout,
        'request: expected the headers and body within REQUEST_TIMEOUT_MS, got them too slowly',
      )
    : errorEnvelope(ErrorCode.badRequest, `malformed HTTP request (${STATUS_CODES[status]})`);
  const body = JSON.stringify(envelope);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
