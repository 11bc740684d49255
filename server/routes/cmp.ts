/**
 * The hosted consent prompt `GET /cmp/prompt.html[?instance=...][&lang=...]` (the promptUiSrc
 * protocol, docs/consent.md "The CMP iframe"), its two scripts `GET /cmp/<name>.js` from the
 * built tree, and `POST /cmp/outcome?instance=...&action=...`, the aggregate counter it beacons
 * for the dashboard (no cookie, no user id).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chooseLanguage, matchLanguage } from '../../src/messages/language.ts';
import { readInstanceId } from '../../src/wire/consent-bodies.ts';
import { readOneOf } from '../../src/wire/values.ts';
import { createAssetCache } from '../cdn-assets.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { promptPageConfig } from '../prompt-page-config.ts';
import { strictOptional, strictRead } from '../strict.ts';
import { utcDay } from '../store/store.ts';
import { tcfFilesOf } from '../tcf-files.ts';
import type { PromptAction } from '../api-types.ts';
import { cdnCacheControl, sendAsset, sourceMapHeader } from './cdn.ts';
import type { AppContext } from './context.ts';

const template = readFileSync(new URL('../pages/prompt.html', import.meta.url), 'utf8');
const promptActions: readonly PromptAction[] = ['accept', 'reject', 'dismiss'];
const scriptNamePattern = /^[a-z]+-0\.1\.js(\.map)?$/;

/** JSON that cannot close the surrounding script element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerPromptRoutes(app: FastifyInstance, context: AppContext): void {
  const files = tcfFilesOf(context);
  app.get('/cmp/prompt.html', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    // Without `instance`, the generic prompt; the page script then counts outcomes for the
    // client info's consentInstanceId.
    const instanceId = strictOptional(readInstanceId, query['instance'], 'instance');
    const asked = typeof query['lang'] === 'string' ? matchLanguage(query['lang'].slice(0, 35)) : null;
    const language = asked ?? chooseLanguage(request.headers['accept-language']);
    const instance = instanceId === null ? null : await context.store.getInstance(instanceId);
    const outcomeUrl = instanceId === null ? null : `/cmp/outcome?instance=${encodeURIComponent(instanceId)}`;
    const config = await promptPageConfig({ language, config: instance?.config ?? null, outcomeUrl, files });
    if (instance?.config.tcf && !config.tcf)
      request.log.warn(
        { instanceId },
        'hosted prompt: instance has tcf settings but the server has no vendor list (TCF_VENDOR_LIST)',
      );
    const nonce = randomBytes(16).toString('base64');
    const html = template
      .split('__NONCE__')
      .join(nonce)
      .replace(
        '<html lang="en" dir="ltr">',
        () => `<html lang="${config.lang}" dir="${config.messages['dir'] === 'rtl' ? 'rtl' : 'ltr'}">`,
      )
      .split('__TITLE__')
      .join(escapeHtml(config.title))
      .replace('__CUSTOMIZE__', () => escapeHtml(config.messages['customize'] ?? ''))
      .replace('__PURPOSES__', () => escapeHtml(config.messages['purposes'] ?? ''))
      .replace('__SPECIAL_FEATURES__', () => escapeHtml(config.messages['specialFeatures'] ?? ''))
      .replace('"__CONFIG__"', () => scriptSafeJson(config));
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'self' data:; base-uri 'none'; form-action 'none'",
    );
    reply
      .header('Cache-Control', 'no-cache')
      .header('Referrer-Policy', 'no-referrer')
      .header('Vary', 'Accept-Language');
    return reply.type('text/html; charset=utf-8').send(html);
  });

  const cache = createAssetCache();
  app.get('/cmp/:name', async (request, reply) => {
    const { name } = request.params as { name: string };
    const asset = scriptNamePattern.test(name) ? await cache.get(join(context.cdnRoot, 'cmp', name)) : null;
    if (!asset)
      throw new HttpError(404, ErrorCode.notFound, `${request.url} is not a hosted prompt script (run npm run build)`);
    sourceMapHeader(reply, name).header('Cache-Control', cdnCacheControl);
    return sendAsset(
      request,
      reply,
      asset,
      name.endsWith('.map') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8',
    );
  });
}

/** Declared among the rate-limited routes (rate-limit.ts). */
export function registerOutcomeRoutes(app: FastifyInstance, context: AppContext): void {
  app.post('/cmp/outcome', { onRequest: publicCors }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const instanceId = strictRead(readInstanceId, query['instance'], 'instance');
    const action = strictRead(readOneOf(promptActions), query['action'], 'action');
    if (!(await context.store.getInstance(instanceId))) {
      throw new HttpError(404, ErrorCode.instanceNotFound, `instance: no instance "${instanceId}"`);
    }
    await context.store.recordPromptOutcome(instanceId, utcDay(context.now()), action);
    return reply.code(204).send();
  });
}
