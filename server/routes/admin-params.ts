/** Path and query readers shared by the admin routes. */
import type { FastifyRequest } from 'fastify';
import { ErrorCode, HttpError, invalidField } from '../errors.ts';
import { readInstanceId } from '../../src/wire/consent-bodies.ts';
import { readText } from '../../src/wire/values.ts';
import { strictOptional, strictRead } from '../strict.ts';
import { type ListQuery, probePage, takePage } from '../pagination.ts';
import type { ConsentStore, InstanceRecord } from '../store/store.ts';

const scanPageSize = 500;

export function instanceIdOf(request: FastifyRequest): string {
  return strictRead(readInstanceId, (request.params as { id: string }).id, 'id');
}

export async function existingInstance(store: ConsentStore, id: string): Promise<InstanceRecord> {
  const instance = await store.getInstance(id);
  if (!instance) throw new HttpError(404, ErrorCode.instanceNotFound, `id: no instance "${id}"`);
  return instance;
}

type UserSelector = { readonly userId: string } | { readonly pageUserId: string };

/** `?userId=` or `?pageUserId=`: which user(s) a request designates. */
export function userSelectorOf(request: FastifyRequest): UserSelector {
  const query = request.query as Record<string, unknown>;
  const userId = strictOptional(readText(100, 1), query['userId'], 'userId');
  if (userId !== null) return { userId };
  const pageUserId = strictOptional(readText(200, 1), query['pageUserId'], 'pageUserId');
  if (pageUserId === null) throw invalidField('userId', 'a userId or pageUserId query parameter', undefined);
  return { pageUserId };
}

/** One page of the server user ids a selector designates. */
export async function pageOfUsers(
  store: ConsentStore,
  instanceId: string,
  selector: UserSelector,
  list: ListQuery,
): Promise<{ items: string[]; nextCursor: string | null }> {
  if ('userId' in selector) return { items: list.cursor === '' ? [selector.userId] : [], nextCursor: null };
  const ids = await store.findUserIds(instanceId, selector.pageUserId, probePage(list.cursor, list.limit));
  return takePage(ids, list.limit, (id) => id);
}

/** Every server user id a selector designates, read page by page (erasure and exports). */
export async function* allUsersOf(
  store: ConsentStore,
  instanceId: string,
  selector: UserSelector,
): AsyncGenerator<string> {
  let cursor = '';
  for (;;) {
    const page = await pageOfUsers(store, instanceId, selector, { limit: scanPageSize, cursor });
    yield* page.items;
    if (page.nextCursor === null) return;
    cursor = page.nextCursor;
  }
}
