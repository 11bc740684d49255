/**
 * `GET /tcf/vendor-list.json`: the server's copy of the IAB Global Vendor List v3, from the file
 * named by `TCF_VENDOR_LIST` (the operator refreshes it; the IAB forbids loading the list from
 * its own domain in pages). Compressed, with ETag and cache headers, readable from any page
 * (the TCF part fetches it cross-origin). Without the setting or the file: 404
 * `tcf-vendor-list-missing`, naming the setting (docs/server.md). The bundled fixture, served in
 * development when the setting is unset, carries an `X-Vendor-List` header saying so.
 * `GET /tcf/google-atps.json`: Google's ATP list (`GOOGLE_ATP_LIST`, the CSV Google publishes)
 * as JSON, `{"atps": [{id, name, policyUrl, domains}]}`, for `tcf.googleAtps: "all"` of page
 * configs; 404 `google-atp-list-missing` without it. Its fixture says so in `X-Google-Atp-List`.
 */
import type { FastifyInstance } from 'fastify';
import { createAssetCache } from '../cdn-assets.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { sendAsset } from './cdn.ts';
import type { AppContext } from './context.ts';
import { FIXTURE_ATP_LIST_HEADER, FIXTURE_VENDOR_LIST_HEADER } from '../development.ts';
import { atpListJson } from '../../src/wire/google-atps.ts';
import { tcfFilesOf } from '../tcf-files.ts';

/** An hour fresh, a day stale: the IAB publishes a new list once a week. */
export const vendorListCacheControl = 'public, max-age=3600, stale-while-revalidate=86400';

export function registerTcfRoutes(app: FastifyInstance, context: AppContext): void {
  const cache = createAssetCache();
  app.get('/tcf/vendor-list.json', { onRequest: publicCors }, async (request, reply) => {
    const file = context.tcfVendorList;
    const asset = file ? await cache.get(file) : null;
    if (!asset) {
      // The path is for the log only: error messages never reveal the server's file system.
      if (file) request.log.warn({ tcfVendorList: file }, 'TCF_VENDOR_LIST names no readable file');
      const why = file ? 'the file named by TCF_VENDOR_LIST is missing' : 'TCF_VENDOR_LIST is not set';
      throw new HttpError(
        404,
        ErrorCode.tcfVendorListMissing,
        `${why}: set it to a copy of the IAB Global Vendor List v3`,
      );
    }
    reply.header('Cache-Control', vendorListCacheControl);
    if (context.tcfVendorListIsFixture) reply.header('X-Vendor-List', FIXTURE_VENDOR_LIST_HEADER);
    return sendAsset(request, reply, asset, 'application/json; charset=utf-8');
  });
  app.get('/tcf/google-atps.json', { onRequest: publicCors }, async (request, reply) => {
    const atps = await tcfFilesOf(context).atpList((line) => request.log.warn(line));
    if (!atps) {
      const file = context.googleAtpList;
      if (file) request.log.warn({ googleAtpList: file }, 'GOOGLE_ATP_LIST names no readable list');
      const why = file ? 'the file named by GOOGLE_ATP_LIST is missing or not a list' : 'GOOGLE_ATP_LIST is not set';
      throw new HttpError(
        404,
        ErrorCode.googleAtpListMissing,
        `${why}: set it to a copy of Google's additional-consent-providers.csv`,
      );
    }
    reply.header('Cache-Control', vendorListCacheControl);
    if (context.googleAtpListIsFixture) reply.header('X-Google-Atp-List', FIXTURE_ATP_LIST_HEADER);
    return atpListJson(atps);
  });
}
