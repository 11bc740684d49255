/**
 * The instance config documents of the admin API (PUT/PATCH /admin/api/instances/:id): read by
 * the shared reader (src/wire/instance-config.ts), strictly (any diagnostic is a 400 naming the
 * field), and an unknown field refused (a typo such as `consentRequird` would otherwise store
 * the default).
 */
import { INSTANCE_CONFIG, type InstanceConfig, readInstanceConfig } from '../src/wire/instance-config.ts';
import { isRecord } from '../src/wire/values.ts';
import { invalidField } from './errors.ts';
import { strictRead } from './strict.ts';

const INSTANCE_FIELDS = Object.keys(INSTANCE_CONFIG);

export function parseInstanceConfig(value: unknown): InstanceConfig {
  const unknown = isRecord(value) ? Object.keys(value).find((key) => !INSTANCE_FIELDS.includes(key)) : undefined;
  if (unknown !== undefined)
    throw invalidField(
      unknown,
      `one of the fields ${INSTANCE_FIELDS.join(', ')}`,
      (value as Record<string, unknown>)[unknown],
    );
  return strictRead(readInstanceConfig, value, '');
}
