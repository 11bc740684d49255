/**
 * Keyset pagination of the admin lists: `?limit=` (1-1000, default 100) and `?cursor=` (the
 * `nextCursor` of the previous page, opaque to clients). Every list answer carries `nextCursor`,
 * null on the last page, so no admin list is unbounded.
 */
import { invalidField } from './errors.ts';
import { readText } from '../src/wire/values.ts';
import { strictOptional } from './strict.ts';
import type { Page } from './store/store.ts';

export const defaultListLimit = 100;
export const maxListLimit = 1000;

export type ListQuery = { readonly limit: number; readonly cursor: string };

function readLimit(value: unknown): number {
  const limit = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= maxListLimit))
    throw invalidField('limit', `an integer from 1 to ${maxListLimit}`, value);
  return limit;
}

/** `limit` and `cursor` from a query string; a missing cursor is the start of the list. */
export function readListQuery(query: Readonly<Record<string, unknown>>): ListQuery {
  return {
    limit: query['limit'] === undefined || query['limit'] === null ? defaultListLimit : readLimit(query['limit']),
    cursor: strictOptional(readText(200, 1), query['cursor'], 'cursor') ?? '',
  };
}

/** The store page to ask for: one item more than the limit, to know whether another page follows. */
export function probePage<Cursor>(after: Cursor, limit: number): Page<Cursor> {
  return { after, limit: limit + 1 };
}

/** The first `limit` items and the cursor of the next page (null when these are the last). */
export function takePage<T>(
  items: readonly T[],
  limit: number,
  keyOf: (item: T) => string,
): { items: T[]; nextCursor: string | null } {
  const page = items.slice(0, limit);
  return { items: page, nextCursor: items.length > limit ? keyOf(page[page.length - 1]!) : null };
}
