/**
 * `GET /examples/...`: the examples folder served as static files; a folder without
 * index.html gets a generated index of its pages. `GET /` redirects there. A file the folder
 * lacks is looked up in the built examples tree beside the CDN tree (`dist/examples`: the
 * third-party libraries `scripts/build-examples.mjs` bundles, such as Prebid.js).
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode, HttpError } from '../errors.ts';
import type { AppContext } from './context.ts';

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function pageTitle(file: string): Promise<string | null> {
  const head = (await readFile(file, 'utf8')).slice(0, 8192);
  return /<title>([^<]*)<\/title>/i.exec(head)?.[1]?.trim() || null;
}

async function renderIndex(dir: string, urlPath: string): Promise<string> {
  const all = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const entries = all.filter((e) => !e.name.startsWith('.'));
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  const items: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) items.push(`<li><a href="${escapeHtml(entry.name)}/">${escapeHtml(entry.name)}/</a></li>`);
    if (!entry.isFile() || extname(entry.name) !== '.html') continue;
    const title = (await pageTitle(join(dir, entry.name))) ?? entry.name;
    items.push(
      `<li><a href="${escapeHtml(entry.name)}">${escapeHtml(title)}</a> <code>${escapeHtml(entry.name)}</code></li>`,
    );
  }
  const list = items.length ? `<ul>${items.join('')}</ul>` : '<p>No example pages yet.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Examples</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}li{margin:.4rem 0}code{color:#555;font-size:.85em}</style>
</head><body><h1>Examples <small>${escapeHtml(urlPath)}</small></h1>${list}</body></html>`;
}

export function registerExampleRoutes(app: FastifyInstance, context: AppContext): void {
  const root = resolve(context.examplesRoot);
  const builtRoot = resolve(context.cdnRoot, '..', 'examples');

  app.get('/', (_request, reply) => reply.redirect('/examples/'));
  app.get('/examples', (_request, reply) => reply.redirect('/examples/', 301));
  app.get('/examples/*', async (request, reply: FastifyReply) => {
    // The router has already decoded the path once; decoding again would turn `%25` into a bad escape.
    const relative = (request.params as { '*': string })['*'];
    const isSafe = !relative.split('/').some((part) => part.startsWith('.'));
    const inside = (base: string, file: string) => isSafe && (file === base || file.startsWith(base + sep));
    const source = resolve(root, relative);
    const sourceInfo = inside(root, source) ? await stat(source).catch(() => null) : null;
    const built = resolve(builtRoot, relative);
    const builtInfo = sourceInfo || !inside(builtRoot, built) ? null : await stat(built).catch(() => null);
    const isBuilt = builtInfo?.isFile() === true;
    const file = isBuilt ? built : source;
    const info = isBuilt ? builtInfo : sourceInfo;
    reply.header('Cache-Control', 'no-cache');
    if (info?.isDirectory() || (relative === '' && !info)) {
      if (!request.url.split('?')[0]!.endsWith('/')) return reply.redirect(`${request.url.split('?')[0]}/`, 301);
      const index = join(file, 'index.html');
      if (
        await stat(index)
          .then((s) => s.isFile())
          .catch(() => false)
      ) {
        return reply.type(contentTypes['.html']!).send(createReadStream(index));
      }
      return reply.type(contentTypes['.html']!).send(await renderIndex(file, `/examples/${relative}`));
    }
    if (!info?.isFile()) throw new HttpError(404, ErrorCode.notFound, `no example file ${request.url}`);
    reply.header('Last-Modified', info.mtime.toUTCString());
    const extension = extname(file);
    const type = Object.hasOwn(contentTypes, extension) ? contentTypes[extension]! : 'application/octet-stream';
    return reply.type(type).send(createReadStream(file));
  });
}
