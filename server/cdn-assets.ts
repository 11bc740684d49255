/**
 * The CDN tree in memory: each file is read and precompressed (brotli, gzip) on first
 * request and again whenever its size or mtime changes (a rebuild while the server runs).
 * The geo script gets one variant per country or subdivision with the placeholder replaced.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

export type Asset = { readonly bodies: Readonly<Record<Encoding, Buffer>>; readonly etag: string };

export const geoPlaceholder = '{{PAGE_GEO_COUNTRY}}';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function buildAsset(body: Buffer): Promise<Asset> {
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  const etag = createHash('sha256').update(body).digest('base64url').slice(0, 16);
  return { bodies: { br, gzip: gz, identity: body }, etag };
}

type Entry = {
  readonly version: string;
  readonly asset: Promise<Asset>;
  readonly variants: Map<string, Promise<Asset>>;
};

export type AssetCache = {
  /** null when the file does not exist. */
  get(file: string): Promise<Asset | null>;
  /** The file with `{{PAGE_GEO_COUNTRY}}` replaced by `country` (`de`, `us-ca`, `unknown`). */
  getPatched(file: string, country: string): Promise<Asset | null>;
};

export function createAssetCache(): AssetCache {
  const entries = new Map<string, Entry>();

  async function entryOf(file: string): Promise<Entry | null> {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    const version = `${info.size}:${info.mtimeMs}`;
    const cached = entries.get(file);
    if (cached?.version === version) return cached;
    const entry: Entry = { version, asset: readFile(file).then(buildAsset), variants: new Map() };
    entries.set(file, entry);
    return entry;
  }

  return {
    async get(file) {
      return (await entryOf(file))?.asset ?? null;
    },
    async getPatched(file, country) {
      const entry = await entryOf(file);
      if (!entry) return null;
      let variant = entry.variants.get(country);
      if (!variant) {
        variant = entry.asset.then((asset) =>
          buildAsset(Buffer.from(asset.bodies.identity.toString('utf8').replaceAll(geoPlaceholder, country))),
        );
        entry.variants.set(country, variant);
      }
      return variant;
    },
  };
}

/** br over gzip over identity, honouring `q=0`. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const allows = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (allows('br')) return 'br';
  if (allows('gzip')) return 'gzip';
  return 'identity';
}

/** Strong ETag per representation; `If-None-Match` compared weakly (RFC 9110). */
export function etagFor(asset: Asset, encoding: Encoding): string {
  return encoding === 'identity' ? `"${asset.etag}"` : `"${asset.etag}-${encoding}"`;
}

export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
