/**
 * `GET /tcf/purposes-<lang>.json`: the IAB's translation of the GVL texts (purposes, features,
 * stacks, data categories) for one language, from `TCF_TRANSLATIONS_DIR`, compressed and
 * cached like the vendor list. Without the setting or the file: 404 `tcf-translation-missing`;
 * the hosted prompt then shows those texts in English.
 */
import type { FastifyInstance } from 'fastify';
import { createAssetCache } from '../cdn-assets.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { tcfFilesOf } from '../tcf-files.ts';
import { sendAsset } from './cdn.ts';
import type { AppContext } from './context.ts';
import { vendorListCacheControl } from './tcf.ts';

export function registerTcfTranslationRoutes(app: FastifyInstance, context: AppContext): void {
  const cache = createAssetCache();
  app.get('/tcf/:file', { onRequest: publicCors }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const code = /^purposes-(.+)\.json$/.exec(file)?.[1] ?? '';
    const path = tcfFilesOf(context).translationPath(code);
    const asset = path ? await cache.get(path) : null;
    if (!asset) {
      const why = context.tcfTranslationsDir ? `no translation file for "${code}"` : 'TCF_TRANSLATIONS_DIR is not set';
      throw new HttpError(
        404,
        ErrorCode.tcfTranslationMissing,
        `${why}: the hosted prompt speaks the GVL's language, English`,
      );
    }
    reply.header('Cache-Control', vendorListCacheControl);
    return sendAsset(request, reply, asset, 'application/json; charset=utf-8');
  });
}
