/**
 * `GET /admin/api/instances/:id/export?format=ndjson|csv|json[&userId=|&pageUserId=]`: an
 * instance's audit log (or one user's), streamed in pages of 500 rows so memory stays flat.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { readOneOf } from '../../src/wire/values.ts';
import { strictOptional } from '../strict.ts';
import { csvHeader, exportContentDisposition, toCsvLine, toNdjsonLine } from '../records-format.ts';
import type { AuditEntry, ConsentStore } from '../store/store.ts';
import { allUsersOf, instanceIdOf, userSelectorOf } from './admin-params.ts';
import type { AppContext } from './context.ts';

const pageSize = 500;

async function* instanceEntries(store: ConsentStore, instanceId: string): AsyncGenerator<AuditEntry> {
  let afterId = 0;
  for (;;) {
    const page = await store.listAuditEntries(instanceId, afterId, pageSize);
    yield* page;
    if (page.length < pageSize) return;
    afterId = page[page.length - 1]!.id;
  }
}

async function* userEntries(store: ConsentStore, instanceId: string, userIds: AsyncIterable<string>) {
  for await (const userId of userIds) {
    let after = 0;
    for (;;) {
      const page = await store.getHistory(instanceId, userId, { after, limit: pageSize });
      yield* page;
      if (page.length < pageSize) break;
      after = page[page.length - 1]!.id;
    }
  }
}

type ExportFormat = 'csv' | 'ndjson' | 'json';

const contentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** CSV with a header row, NDJSON, or one JSON array (the NDJSON lines joined by commas). */
async function* lines(entries: AsyncIterable<AuditEntry>, format: ExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield csvHeader();
  let separator = format === 'json' ? '[' : '';
  for await (const entry of entries) {
    yield format === 'csv' ? toCsvLine(entry) : separator + toNdjsonLine(entry);
    if (format === 'json') separator = ',';
  }
  if (format === 'json') yield separator === '[' ? '[]\n' : ']\n';
}

export function registerExportRoutes(admin: FastifyInstance, context: AppContext): void {
  admin.get('/admin/api/instances/:id/export', async (request, reply) => {
    const instanceId = instanceIdOf(request);
    const query = request.query as Record<string, unknown>;
    const format = strictOptional(readOneOf(['csv', 'ndjson', 'json'] as const), query['format'], 'format') ?? 'ndjson';
    const byUser = query['userId'] !== undefined || query['pageUserId'] !== undefined;
    const entries = byUser
      ? userEntries(context.store, instanceId, allUsersOf(context.store, instanceId, userSelectorOf(request)))
      : instanceEntries(context.store, instanceId);
    reply.header('Content-Disposition', exportContentDisposition(instanceId, format));
    return reply.type(contentTypes[format]).send(Readable.from(lines(entries, format)));
  });
}
