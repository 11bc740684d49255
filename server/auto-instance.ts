/**
 * Instances created on first use (a consent check or update naming an unknown instance), capped
 * by MAX_AUTO_INSTANCES so that callers cannot fill the database with instance ids. Beyond the
 * cap: 403 `instance-cap-reached` and nothing is written.
 */
import { ErrorCode, HttpError } from './errors.ts';
import type { AppContext } from './routes/context.ts';
import type { InstanceRecord } from './store/store.ts';
import { defaultInstanceConfig } from './store/store.ts';

export async function ensureAutoInstance(context: AppContext, id: string): Promise<InstanceRecord> {
  const cap = context.maxAutoInstances;
  const instance = await context.store.ensureInstance(id, defaultInstanceConfig, context.now(), cap);
  if (instance) return instance;
  throw new HttpError(
    403,
    ErrorCode.instanceCapReached,
    `consentInstanceId: no instance "${id}", and MAX_AUTO_INSTANCES (${cap}) instances were already created on first use; ` +
      'create it through the admin API, or raise the cap',
  );
}
