/**
 * `GET /tcf/vendor-list.json`: the server's copy of the IAB Global Vendor List v3, from the file
 * named by `TCF_VENDOR_LIST` (the operator refreshes it; the IAB forbids loading the list from
 * its own domain in pages). Compressed, with ETag and cache headers, readable from any page
 * (the TCF part fetches it cross-origin). Without the setting or the file: 404
 * `tcf-vendor-list-missing`, naming the setting (docs/server.md). The bundled fixture, served in
 * development when the setting is unset, carries an `X-Vendor-List` header saying so.
 */
import type { FastifyInstance } from 'fastify';
import { createAssetCache } from '../cdn-assets.ts';
import { publicCors } from '../cors.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import { sendAsset } from './cdn.ts';
import type { AppContext } from './context.ts';
import { FIXTURE_VENDOR_LIST_HEADER } from '../development.ts';

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
}
