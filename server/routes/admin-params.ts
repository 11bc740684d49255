/** Path and query readers shared by the admin routes. */
import type { FastifyRequest } from 'fastify';
import { instanceIdRule } from '../consent-request.ts';
import { ErrorCode, HttpError, invalidField } from '../errors.ts';
import { readOptional, readString } from '../fields.ts';
import type { ConsentStore, InstanceRecord } from '../store/store.ts';

export function instanceIdOf(request: FastifyRequest): string {
  return readString((request.params as { id: string }).id, 'id', instanceIdRule);
}

export async function existingInstance(store: ConsentStore, id: string): Promise<InstanceRecord> {
  const instance = await store.getInstance(id);
  if (!instance) throw new HttpError(404, ErrorCode.instanceNotFound, `id: no instance "${id}"`);
  return instance;
}

/** `?userId=` or `?pageUserId=` -> the server user ids it designates. */
export async function usersOf(store: ConsentStore, instanceId: string, request: FastifyRequest): Promise<string[]> {
  const query = request.query as Record<string, unknown>;
  const userId = readOptional(query['userId'], (v) => readString(v, 'userId', { max: 100 }));
  if (userId !== null) return [userId];
  const pageUserId = readOptional(query['pageUserId'], (v) => readString(v, 'pageUserId', { max: 200 }));
  if (pageUserId === null) throw invalidField('userId', 'a userId or pageUserId query parameter', undefined);
  return [...(await store.findUserIds(instanceId, pageUserId))];
}
