/**
 * Bearer-token guard of the admin API. No ADMIN_TOKEN: 404 `admin-disabled`. Missing or
 * malformed `Authorization: Bearer <token>`: 401 `admin-unauthorized` with a
 * `WWW-Authenticate` challenge. A wrong token: 401 `admin-token-invalid`, the challenge saying
 * `error="invalid_token"` (RFC 6750 3.1: 403 is for a valid token without the scope).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, HttpError } from './errors.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function adminGuard(adminToken: string | null) {
  const expected = adminToken ? digest(adminToken) : null;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header('Cache-Control', 'no-store');
    if (!expected) {
      throw new HttpError(404, ErrorCode.adminDisabled, 'admin is disabled: start the server with ADMIN_TOKEN set');
    }
    const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match) {
      reply.header('WWW-Authenticate', 'Bearer realm="page-admin"');
      throw new HttpError(401, ErrorCode.adminUnauthorized, 'Authorization: expected "Bearer <ADMIN_TOKEN>"');
    }
    if (!timingSafeEqual(digest(match[1]!), expected)) {
      reply.header('WWW-Authenticate', 'Bearer realm="page-admin", error="invalid_token"');
      throw new HttpError(401, ErrorCode.adminTokenInvalid, 'Authorization: the bearer token is not ADMIN_TOKEN');
    }
  };
}
