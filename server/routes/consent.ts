/**
 * `POST /consent/check` (checkConsentHref) and `POST /consent/update` (onUpdateHref), with
 * credentialed CORS for ALLOWED_ORIGINS, the user id cookie and JSON-only 16 KB bodies.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ensureAutoInstance } from '../auto-instance.ts';
import { buildCheckAnswer, resolveGeoGroup } from '../consent-policy.ts';
import { parseCheckRequest, parseUpdateRequest } from '../consent-request.ts';
import { credentialedCors } from '../cors.ts';
import { requestCountry, unknownCountry } from '../country.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { buildReceipt, newReceiptId } from '../receipts.ts';
import { newUserId, readUserId, serializeUserCookie } from '../user-cookie.ts';
import type { UpdateAnswer } from '../wire.ts';
import type { AppContext } from './context.ts';

export const consentBodyLimit = 16 * 1024;

/** The parsed JSON body; a request without one is refused like any non-JSON type. */
export function requireJsonBody(request: FastifyRequest): unknown {
  if (request.body === undefined) {
    throw new HttpError(415, ErrorCode.unsupportedMediaType, 'Content-Type: expected application/json, got nothing');
  }
  return request.body;
}

/** The cookie's user id, or a new one set on the reply. */
function userIdFor(request: FastifyRequest, reply: FastifyReply, refresh: boolean): string {
  const existing = readUserId(request.headers.cookie);
  const userId = existing ?? newUserId();
  if (!existing || refresh) reply.header('Set-Cookie', serializeUserCookie(userId, request.hostname));
  return userId;
}

export function registerConsentRoutes(app: FastifyInstance, context: AppContext): void {
  const { store } = context;
  const options = {
    onRequest: credentialedCors(context.allowedOrigins),
    bodyLimit: consentBodyLimit,
    config: { rateLimit: context.rateLimit },
  };

  app.options('/consent/check', options, (_request, reply) => reply.code(204).send());
  app.options('/consent/update', options, (_request, reply) => reply.code(204).send());

  app.post('/consent/check', options, async (request, reply) => {
    const body = parseCheckRequest(requireJsonBody(request));
    const instance = await ensureAutoInstance(context, body.consentInstanceId);
    const country = body.matchedGeoGroup === null ? requestCountry(request, context) : unknownCountry;
    const group = resolveGeoGroup(instance.config, body.matchedGeoGroup, country);
    const hadCookie = readUserId(request.headers.cookie) !== null;
    const userId = userIdFor(request, reply, false);
    const decision = hadCookie ? await store.getDecision(instance.id, userId) : null;
    const answer = JSON.stringify(buildCheckAnswer(instance, group, decision));
    reply.header('Cache-Control', 'no-store').type('application/json; charset=utf-8');
    return reply.send((instance.config.xssiPrefix ?? '') + answer);
  });

  app.post('/consent/update', options, async (request, reply) => {
    const body = parseUpdateRequest(requireJsonBody(request));
    const instance = await ensureAutoInstance(context, body.consentInstanceId);
    const userId = userIdFor(request, reply, true);
    const entry = {
      instanceId: instance.id,
      userId,
      pageUserId: body.pageUserId,
      state: body.consentStateValue,
      consentString: body.consentString ?? null,
      purposeConsents: body.purposeConsents ?? null,
      consentMetadata: body.consentMetadata ?? null,
      tcfPolicyVersion: body.tcfPolicyVersion ?? null,
      policyVersion: instance.policyVersion,
      time: context.now(),
      origin: request.headers.origin ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 512) || null,
      ipHash: await context.hashIp(request.ip),
      gpc: body.gpc === true,
    };
    // Signed first, then stored with the audit row in one transaction: both or neither (PRODUCT 3.12).
    const receiptId = newReceiptId();
    const group = resolveGeoGroup(instance.config, null, requestCountry(request, context));
    const jws = await context.receipts.sign(buildReceipt(receiptId, entry, group));
    await store.recordDecision(entry, { id: receiptId, jws });
    const answer: UpdateAnswer = { recorded: true, policyVersion: instance.policyVersion, receiptId };
    return reply.header('Cache-Control', 'no-store').send(answer);
  });
}
