/**
 * The hosted consent prompt `GET /cmp/prompt.html[?instance=...]` (promptUiSrc protocol,
 * PRODUCT 3.7) and `POST /cmp/outcome?instance=...&action=...`, the aggregate counter it
 * beacons for the dashboard (no cookie, no user id).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { readInstanceId } from '../../src/wire/consent-bodies.ts';
import { readOneOf } from '../../src/wire/values.ts';
import { strictOptional, strictRead } from '../strict.ts';
import type { InstanceConfig } from '../store/store.ts';
import { utcDay } from '../store/store.ts';
import type { PromptAction, PromptConfig } from '../wire.ts';
import type { AppContext } from './context.ts';

const template = readFileSync(new URL('../pages/prompt.html', import.meta.url), 'utf8');
const promptActions: readonly PromptAction[] = ['accept', 'reject', 'dismiss'];

/** Used when an instance has no `prompt` config: a generic text and its required purposes. */
export function defaultPrompt(config: InstanceConfig | null): PromptConfig {
  return {
    title: 'Your privacy choices',
    message:
      'We and our partners use cookies and similar technologies to measure the audience and to show ads. ' +
      'You can accept, reject, or choose purpose by purpose. You can change your mind at any time.',
    purposes: (config?.purposeConsentRequired ?? []).map((id) => ({ id, label: id })),
    vendors: [],
  };
}

/** JSON that cannot close the surrounding script element. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function registerPromptRoutes(app: FastifyInstance, context: AppContext): void {
  app.get('/cmp/prompt.html', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    // Without `instance`, the generic prompt; the page script then counts outcomes for the
    // client info's consentInstanceId.
    const instanceId = strictOptional(readInstanceId, query['instance'], 'instance');
    const instance = instanceId === null ? null : await context.store.getInstance(instanceId);
    const prompt = instance?.config.prompt ?? defaultPrompt(instance?.config ?? null);
    const outcomeUrl = instanceId === null ? null : `/cmp/outcome?instance=${encodeURIComponent(instanceId)}`;
    const nonce = randomBytes(16).toString('base64');
    const html = template
      .split('__NONCE__')
      .join(nonce)
      .replace('"__CONFIG__"', () => scriptSafeJson({ ...prompt, outcomeUrl }));
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
        "img-src 'self' data:; base-uri 'none'; form-action 'none'",
    );
    reply.header('Cache-Control', 'no-cache').header('Referrer-Policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').send(html);
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
