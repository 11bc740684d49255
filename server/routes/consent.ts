/**
 * `POST /consent/check` (checkConsentHref) and `POST /consent/update` (onUpdateHref), with
 * credentialed CORS for ALLOWED_ORIGINS, the user id cookie and JSON-only 16 KB bodies.
 * Answers are serialised by the routes' response schemas (compiled once); the instance comes
 * from the store's cache and updates are group-committed (docs/decisions/server-throughput.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ensureAutoInstance } from '../auto-instance.ts';
import { buildCheckAnswer, resolveGeoGroup } from '../consent-policy.ts';
import { parseCheckRequest, parseUpdateRequest } from '../consent-request.ts';
import { credentialedCors } from '../cors.ts';
import { requestPlace, unknownCountry } from '../country.ts';
import { unsupportedMediaType } from '../framework-errors.ts';
import { buildReceipt, newReceiptId } from '../receipts.ts';
import { newUserId, readUserId, serializeUserCookie } from '../user-cookie.ts';
import type { DecisionRecord, InstanceRecord } from '../store/store.ts';
import type { ConsentCheckRequest } from '../../src/wire/protocol.ts';
import type { CheckAnswer, UpdateAnswer } from '../api-types.ts';
import type { AppContext } from './context.ts';

export const consentBodyLimit = 16 * 1024;

/** The parsed JSON body; a request without one is refused like any non-JSON type. */
export function requireJsonBody(request: FastifyRequest): unknown {
  if (request.body === undefined) throw unsupportedMediaType(request.headers['content-type']);
  return request.body;
}

/** The cookie's user id, or a new one; either way set again on the reply (a decision renews it). */
function renewUserId(request: FastifyRequest, reply: FastifyReply): string {
  const id = readUserId(request.headers.cookie) ?? newUserId();
  reply.header('Set-Cookie', serializeUserCookie(id, request.hostname));
  return id;
}

const jsonObject = { type: 'object', additionalProperties: true } as const;

/**
 * The response schema of CheckAnswer: one property per field of the type, no more and no fewer
 * (`satisfies` fails the typecheck otherwise), because the compiled serialiser silently drops
 * a field it does not list. The values of the open maps are written as they are.
 */
export const checkAnswerSchema = {
  type: 'object',
  properties: {
    consentRequired: { type: 'boolean' },
    consentStateValue: { type: ['string', 'null'] },
    consentString: { type: ['string', 'null'] },
    expireCache: { type: 'boolean' },
    purposeConsents: jsonObject,
    purposeConsent: jsonObject,
    consentMetadata: jsonObject,
    tcfPolicyVersion: { type: 'number' },
    sharedData: jsonObject,
    purposeConsentRequired: { type: 'array', items: { type: 'string' } },
  } satisfies Record<keyof CheckAnswer, object>,
} as const;

const updateAnswerSchema = {
  type: 'object',
  properties: { recorded: { type: 'boolean' }, policyVersion: { type: 'integer' }, receiptId: { type: 'string' } },
} as const;

export function registerConsentRoutes(app: FastifyInstance, context: AppContext): void {
  const { store } = context;
  const options = {
    onRequest: credentialedCors(context.allowedOrigins),
    bodyLimit: consentBodyLimit,
  };

  app.options('/consent/check', options, (_request, reply) => reply.code(204).send());
  app.options('/consent/update', options, (_request, reply) => reply.code(204).send());

  /** The answer for a known instance; a request without a user id gets a new one (and no decision). */
  const answerCheck = (
    request: FastifyRequest,
    reply: FastifyReply,
    body: ConsentCheckRequest,
    instance: InstanceRecord,
    decision: DecisionRecord | null,
    isNewUser: boolean,
  ): CheckAnswer | string => {
    if (isNewUser) reply.header('Set-Cookie', serializeUserCookie(newUserId(), request.hostname));
    const place =
      body.matchedGeoGroup === null
        ? requestPlace(request, context)
        : { country: unknownCountry, subdivision: 'unknown' };
    const answer = buildCheckAnswer(instance, resolveGeoGroup(instance.config, body.matchedGeoGroup, place), decision);
    reply.header('Cache-Control', 'no-store');
    const prefix = instance.config.xssiPrefix;
    if (!prefix) return answer;
    reply.type('application/json; charset=utf-8');
    return prefix + reply.serialize(answer);
  };

  // Not an async function: a first visit (no user cookie), or a returning reader whose decision
  // this process holds, to an instance this process holds is answered at once, without a
  // promise; everything else waits for the store.
  app.post('/consent/check', { ...options, schema: { response: { 200: checkAnswerSchema } } }, (request, reply) => {
    const body = parseCheckRequest(requireJsonBody(request));
    const userId = readUserId(request.headers.cookie);
    const cached = store.peekInstance(body.consentInstanceId);
    if (cached !== null && userId === null) return answerCheck(request, reply, body, cached, null, true);
    const decision = cached === null || userId === null ? undefined : store.peekDecision(cached.id, userId);
    if (cached !== null && decision !== undefined) return answerCheck(request, reply, body, cached, decision, false);
    return (async () => {
      const instance = cached ?? (await ensureAutoInstance(context, body.consentInstanceId));
      const decision = userId === null ? null : await store.getDecision(instance.id, userId);
      return answerCheck(request, reply, body, instance, decision, userId === null);
    })();
  });

  app.post(
    '/consent/update',
    { ...options, schema: { response: { 200: updateAnswerSchema } } },
    async (request, reply) => {
      const body = parseUpdateRequest(requireJsonBody(request));
      const instance = await ensureAutoInstance(context, body.consentInstanceId);
      const userId = renewUserId(request, reply);
      // The group the receipt names, kept with the audit row for the stats per group.
      const group = resolveGeoGroup(instance.config, null, requestPlace(request, context));
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
        geoGroup: group,
      };
      // Signed first, then stored with the audit row in one transaction: both or neither (docs/server.md, "Proving consent").
      const receiptId = newReceiptId();
      const jws = await context.receipts.sign(buildReceipt(receiptId, entry, group));
      await store.recordDecision(entry, { id: receiptId, jws });
      const answer: UpdateAnswer = { recorded: true, policyVersion: instance.policyVersion, receiptId };
      reply.header('Cache-Control', 'no-store');
      return answer;
    },
  );
}
