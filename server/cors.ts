/**
 * CORS for the two audiences: credentialed calls (consent endpoints) allowed only from the
 * exact origins in ALLOWED_ORIGINS, and public reads (CDN, ads config) open to every origin
 * without credentials. An unknown origin is never reflected and `*` never goes with credentials.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ConfigError, ErrorCode, HttpError } from './errors.ts';

/** Canonical origins from a comma list; throws a ConfigError naming a bad entry. */
export function parseAllowedOrigins(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | null = null;
      try {
        url = new URL(entry);
      } catch {}
      if (!url || entry === '*' || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
        throw new ConfigError(
          'allowed-origin-invalid',
          `ALLOWED_ORIGINS: expected origins such as https://news.example, got "${entry}"`,
        );
      }
      return url.origin;
    });
}

/**
 * onRequest hook for credentialed routes: an allowed origin, or the server's own origin
 * (same-origin pages such as /examples/), gets its own value back with credentials; a request
 * without Origin (curl, server to server) passes without CORS headers; any other origin gets
 * 403 `origin-not-allowed` and nothing is read or written.
 */
export function credentialedCors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  // Callback-style (no promise per request): it runs on every consent check.
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: FastifyError) => void): void => {
    reply.header('Vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined) {
      done();
      return;
    }
    if (!allowed.has(origin) && origin !== `${request.protocol}://${request.host}`) {
      const refused = new HttpError(
        403,
        ErrorCode.originNotAllowed,
        `Origin: expected one of ALLOWED_ORIGINS, got "${origin}"`,
      );
      done(refused as unknown as FastifyError);
      return;
    }
    reply.header('Access-Control-Allow-Origin', origin);
    reply.header('Access-Control-Allow-Credentials', 'true');
    if (request.method === 'OPTIONS') {
      reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS');
      reply.header('Access-Control-Allow-Headers', 'Content-Type');
      reply.header('Access-Control-Max-Age', '600');
    }
    done();
  };
}

/** onRequest hook for public resources: `*`, never credentials. */
export async function publicCors(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('Access-Control-Allow-Origin', '*');
  if (request.method === 'OPTIONS') {
    reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    reply.header('Access-Control-Max-Age', '600');
  }
}
