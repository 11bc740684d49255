/** `GET /admin/`: the dashboard page (static; it asks for the token and calls the admin API). */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const template = readFileSync(new URL('../pages/admin.html', import.meta.url), 'utf8');

export function registerAdminPageRoutes(app: FastifyInstance): void {
  app.get('/admin', (_request, reply) => reply.redirect('/admin/', 301));
  app.get('/admin/', (_request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    reply.header('Cache-Control', 'no-cache').header('Referrer-Policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(template.split('__NONCE__').join(nonce));
  });
}
