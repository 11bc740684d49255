/**
 * Proof of consent (docs/server.md, "Proving consent"): `GET /consent/receipt/:id` for the reader who made the
 * update (user cookie) or the admin (bearer ADMIN_TOKEN), 404 for anyone else;
 * `GET /.well-known/page-consent-keys.json`, the public JWK set; `POST /admin/receipt-keys`
 * rotates to a new generated key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { adminGuard } from '../admin-auth.ts';
import { credentialedCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { readUserId } from '../user-cookie.ts';
import type { AppContext } from './context.ts';

/** `/consent/receipt/:id`, declared among the rate-limited routes (rate-limit.ts). */
export function registerReceiptRoutes(app: FastifyInstance, context: AppContext): void {
  const { store } = context;
  const guard = adminGuard(context.adminToken);
  // The guard's challenge headers are for admin routes; here every refusal is the same 404.
  const quiet = { header: () => quiet } as unknown as FastifyReply;
  const isAdmin = (request: FastifyRequest) =>
    guard(request, quiet).then(
      () => true,
      () => false,
    );
  const options = { onRequest: credentialedCors(context.allowedOrigins) };

  app.options('/consent/receipt/:id', options, (_request, reply) => reply.code(204).send());
  app.get<{ Params: { id: string } }>('/consent/receipt/:id', options, async (request, reply) => {
    const { id } = request.params;
    const receipt = /^[\w-]{1,100}$/.test(id) ? await store.getReceipt(id) : null;
    const isOwner = receipt !== null && readUserId(request.headers.cookie) === receipt.userId;
    reply.header('Cache-Control', 'no-store');
    if (!receipt || !(isOwner || (await isAdmin(request)))) {
      throw new HttpError(404, ErrorCode.receiptNotFound, `receipt ${id}: expected a receipt of yours, got none`);
    }
    return { receiptId: receipt.id, instanceId: receipt.instanceId, time: receipt.time, jws: receipt.jws };
  });
}

/** The public key set and the admin's key rotation (not rate-limited). */
export function registerReceiptKeyRoutes(app: FastifyInstance, context: AppContext): void {
  const { receipts } = context;
  const guard = adminGuard(context.adminToken);

  // The signing key is loaded (or generated and kept) at start, not by the first update.
  app.addHook('onReady', async () => {
    await receipts.keySet().catch((error: unknown) => app.log.error({ err: error }, 'receipt signing key unavailable'));
  });

  app.get('/.well-known/page-consent-keys.json', async (_request, reply) => {
    reply.header('Cache-Control', 'public, max-age=300').header('Access-Control-Allow-Origin', '*');
    return receipts.keySet();
  });

  app.post('/admin/receipt-keys', { onRequest: guard }, async (_request, reply) =>
    reply.code(201).send({ kid: await receipts.rotate() }),
  );
}
