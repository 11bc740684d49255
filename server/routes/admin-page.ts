/**
 * `GET /admin/`: the dashboard page (static; it asks for the token and calls the admin API).
 * Without ADMIN_TOKEN it says at once that the admin is disabled and how to enable it, its token
 * field and Connect button disabled. `GET /admin/admin-0.1.js` (+ `.map`): its script, built
 * from `src/admin/` into `dist/admin/` (the server's own file, whatever its CDN root), revalidated
 * on every load like the page it belongs to.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createAssetCache } from '../cdn-assets.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { sendAsset, sourceMapHeader } from './cdn.ts';
import type { AppContext } from './context.ts';

/** The dashboard's script, as `server/pages/admin.html` names it, and where the build writes it. */
export const adminScript = 'admin-0.1.js';
const adminScriptDir = fileURLToPath(new URL('../../dist/admin/', import.meta.url));

const template = readFileSync(new URL('../pages/admin.html', import.meta.url), 'utf8');

export const adminDisabledText =
  'The admin is disabled: this server was started without ADMIN_TOKEN. Restart it with ADMIN_TOKEN set ' +
  '(16+ characters); in development on localhost, npm start generates one and prints it with the admin URL.';

/** The page as served: the disabled state written in, or the markers removed. */
function adminPage(isEnabled: boolean): string {
  return template
    .replace('__ADMIN_STATUS__', isEnabled ? '' : adminDisabledText)
    .replace('__ADMIN_STATUS_CLASS__', isEnabled ? '' : 'error')
    .split(' __ADMIN_FORM__')
    .join(isEnabled ? '' : ' disabled');
}

export function registerAdminPageRoutes(app: FastifyInstance, context: AppContext): void {
  const page = adminPage(context.adminToken !== null);
  app.get('/admin', (_request, reply) => reply.redirect('/admin/', 301));
  app.get('/admin/', (_request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    reply.header('Cache-Control', 'no-cache').header('Referrer-Policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(page.split('__NONCE__').join(nonce));
  });
  const cache = createAssetCache();
  for (const name of [adminScript, `${adminScript}.map`]) {
    app.get(`/admin/${name}`, async (request, reply) => {
      const asset = await cache.get(join(adminScriptDir, name));
      if (!asset) throw new HttpError(404, ErrorCode.notFound, `${request.url} is not built (run npm run build)`);
      sourceMapHeader(reply, name).header('Cache-Control', 'no-cache');
      const isMap = name.endsWith('.map');
      return sendAsset(request, reply, asset, `${isMap ? 'application/json' : 'text/javascript'}; charset=utf-8`);
    });
  }
}
