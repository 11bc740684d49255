/**
 * `GET /ads/config?client=...&url=...`: the auto-ads ConfigObj for the `custom` network, from
 * ADS_CONFIG_DIR files first, then the store. Public CORS without credentials.
 */
import type { FastifyInstance } from 'fastify';
import { type AdsConfigDocument, parseAdsConfigDocument, readAdsClient, selectAdsConfig } from '../ads-config.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { readText } from '../../src/wire/values.ts';
import { strictOptional, strictRead } from '../strict.ts';
import type { AppContext } from './context.ts';

/**
 * A stored document was validated when the admin API stored it; one that no longer parses is
 * the server's problem, not the page's: a 500 whose log line names the client and the field.
 */
function readStoredDocument(stored: unknown, client: string): AdsConfigDocument {
  try {
    return parseAdsConfigDocument(stored);
  } catch (error) {
    throw new Error(
      `stored ads config of "${client}" is invalid: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The client's ads config document, from ADS_CONFIG_DIR first, then the store; 404 for neither. */
export async function findAdsConfigDocument(context: AppContext, client: string): Promise<AdsConfigDocument> {
  const fromFile = context.adsConfigs.get(client);
  const stored = fromFile ? null : await context.store.getAdsConfig(client);
  const document = fromFile ?? (stored === null ? null : readStoredDocument(stored, client));
  if (!document) throw new HttpError(404, ErrorCode.adsClientNotFound, `client: no ads config for "${client}"`);
  return document;
}

export function registerAdsConfigRoutes(app: FastifyInstance, context: AppContext): void {
  app.options('/ads/config', { onRequest: publicCors }, (_request, reply) => reply.code(204).send());

  app.get('/ads/config', { onRequest: publicCors }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const client = strictRead(readAdsClient, query['client'], 'client');
    const url = strictOptional(readText(4000, 1), query['url'], 'url');
    const document = await findAdsConfigDocument(context, client);
    reply.header('Cache-Control', 'public, max-age=60');
    return reply.send(selectAdsConfig(document, url));
  });
}
