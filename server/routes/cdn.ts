/**
 * `GET /v0.js` and `GET /v0/<name>.js` (+ `.map`) from the CDN tree, compressed, with ETag and
 * cache headers: a lazily loaded part, whose name holds the hash of its bundle's parts, is cached for a
 * year as immutable; every other file briefly (docs/decisions/part-names.md). `page-geo-0.1.js`
 * carries the requester's country and subdivision (docs/geo.md and docs/server.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Asset } from '../cdn-assets.ts';
import { chooseEncoding, createAssetCache, etagFor, etagMatches } from '../cdn-assets.ts';
import { publicCors } from '../cors.ts';
import { requestPlace } from '../country.ts';
import { ErrorCode, HttpError } from '../errors.ts';
import type { AppContext } from './context.ts';

export const geoScript = 'page-geo-0.1.js';
export const cdnCacheControl = 'public, max-age=300, stale-while-revalidate=3600';
export const partCacheControl = 'public, max-age=31536000, immutable';
const fileNamePattern = /^[a-z0-9][a-z0-9.-]*\.js(\.map)?$/;
/** A part's file, `{prefix}{name}.{hash}.js` (scripts/part-names.mjs): its bytes never change under that name. */
export const partFilePattern = /^[a-z][a-z0-9-]*\.[0-9a-z]{5}\.js$/;

/** A part is never changed under its name; any other file may change with a release, and is revalidated after five minutes. */
const cacheControlOf = (name: string) => (partFilePattern.test(name) ? partCacheControl : cdnCacheControl);

/** The production files name no source map: the header does, for the browser's developer tools. */
export const sourceMapHeader = (reply: FastifyReply, name: string) =>
  name.endsWith('.js') ? reply.header('SourceMap', `${name}.map`) : reply;

/** `asset` in the best encoding the client accepts, with ETag (304 on a match) and CORP for any page. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset, contentType: string) {
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  const etag = etagFor(asset, encoding);
  reply.header('ETag', etag).header('Vary', [reply.getHeader('Vary'), 'Accept-Encoding'].filter(Boolean).join(', '));
  reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  return reply.type(contentType).send(asset.bodies[encoding]);
}

export function registerCdnRoutes(app: FastifyInstance, context: AppContext): void {
  const cache = createAssetCache();
  const root = context.cdnRoot;

  async function serve(request: FastifyRequest, reply: FastifyReply, relativePath: string, name: string) {
    if (!fileNamePattern.test(name)) throw new HttpError(404, ErrorCode.notFound, `${request.url} is not a CDN file`);
    if (!existsSync(join(root, 'v0.js'))) {
      // The path is for the log only: error messages never reveal the server's file system.
      request.log.warn({ cdnRoot: root }, 'CDN tree not built: v0.js is missing');
      throw new HttpError(
        404,
        ErrorCode.cdnNotBuilt,
        'the CDN tree is not built (v0.js is missing): run npm run build, then reload',
      );
    }
    const file = join(root, relativePath);
    const isGeo = relativePath === `v0/${geoScript}`;
    const place = isGeo ? requestPlace(request, context) : null;
    // The patched value: `us-ca` when the subdivision is known, else the country (`de`, `unknown`).
    const asset = place
      ? await cache.getPatched(file, place.subdivision === 'unknown' ? place.country : place.subdivision)
      : await cache.get(file);
    if (!asset) throw new HttpError(404, ErrorCode.notFound, `${request.url} is not in the CDN tree`);
    // Public only when the place came from trusted headers; an IP lookup is per client.
    reply.header('Cache-Control', place && place.source === null ? 'private, max-age=300' : cacheControlOf(name));
    const varied = context.geoHeaders.flatMap((pair) =>
      pair.region === null ? [pair.country] : [pair.country, pair.region],
    );
    if (isGeo && varied.length) reply.header('Vary', varied.join(', '));
    sourceMapHeader(reply, name);
    const type = name.endsWith('.map') ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8';
    return sendAsset(request, reply, asset, type);
  }

  for (const name of ['v0.js', 'v0.js.map']) {
    app.get(`/${name}`, { onRequest: publicCors }, (request, reply) => serve(request, reply, name, name));
  }
  app.get('/v0/:name', { onRequest: publicCors }, async (request, reply) => {
    const { name } = request.params as { name: string };
    return serve(request, reply, `v0/${name}`, name);
  });
}
