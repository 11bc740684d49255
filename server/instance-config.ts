/** Parser for the instance config documents of the admin API (PUT/PATCH /admin/api/instances/:id). */
import type { SharedData } from '../src/protocol.ts';
import { invalidField } from './errors.ts';
import { readArray, readBoolean, readMap, readObject, readOptional, readPlainText, readString } from './fields.ts';
import { geoGroupEntryPattern } from './geo-groups.ts';
import { parseTcfSettings } from './instance-tcf.ts';
import type { InstanceConfig } from './store/store.ts';
import type { PromptConfig, PromptPurpose, PromptVendor } from './wire.ts';

const purposeIdRule = { max: 100, pattern: /^[A-Za-z0-9._:-]+$/, patternText: 'a purpose id of letters, digits or . _ : -' };

function readUrl(value: unknown, field: string): string {
  const text = readString(value, field, { max: 2000 });
  if (!/^https?:\/\//.test(text)) throw invalidField(field, 'an http(s) URL', value);
  return text;
}

function readSharedValue(value: unknown, field: string): string | number | boolean {
  if (typeof value === 'string') return readPlainText(value, field);
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  throw invalidField(field, 'a string, number or boolean', value);
}

function readPurpose(value: unknown, field: string): PromptPurpose {
  const object = readObject(value, field);
  const description = readOptional(object['description'], (v) => readString(v, `${field}.description`, { max: 2000 }));
  return {
    id: readString(object['id'], `${field}.id`, purposeIdRule),
    label: readString(object['label'], `${field}.label`, { max: 200 }),
    ...(description === null ? {} : { description }),
  };
}

function readVendor(value: unknown, field: string): PromptVendor {
  const object = readObject(value, field);
  const url = readOptional(object['url'], (v) => readUrl(v, `${field}.url`));
  const purposes = readOptional(object['purposes'], (v) =>
    readArray(v, `${field}.purposes`, (item, itemField) => readString(item, itemField, purposeIdRule)),
  );
  return {
    name: readString(object['name'], `${field}.name`, { max: 200 }),
    ...(url === null ? {} : { url }),
    ...(purposes === null ? {} : { purposes }),
  };
}

export function parsePromptConfig(value: unknown, field = 'prompt'): PromptConfig {
  const object = readObject(value, field);
  const policyUrl = readOptional(object['privacyPolicyUrl'], (v) => readUrl(v, `${field}.privacyPolicyUrl`));
  return {
    title: readString(object['title'], `${field}.title`, { max: 200 }),
    message: readString(object['message'], `${field}.message`, { max: 4000 }),
    purposes: readOptional(object['purposes'], (v) => readArray(v, `${field}.purposes`, readPurpose, 50)) ?? [],
    vendors: readOptional(object['vendors'], (v) => readArray(v, `${field}.vendors`, readVendor, 1000)) ?? [],
    ...(policyUrl === null ? {} : { privacyPolicyUrl: policyUrl }),
  };
}

function readGeoGroups(value: unknown): Record<string, readonly string[]> {
  return readMap(value, 'geoGroups', (entries, field) =>
    readArray(entries, field, (entry, entryField) => {
      const code = readString(entry, entryField, { max: 40 }).toLowerCase();
      if (!geoGroupEntryPattern.test(code)) throw invalidField(entryField, 'an ISO country code or a preset', entry);
      return code;
    }, 300),
  );
}

const INSTANCE_FIELDS = ['consentRequired', 'geoGroups', 'sharedData', 'purposeConsentRequired', 'xssiPrefix', 'prompt', 'tcf'];

/**
 * Missing fields take the defaults; `consentRequired` always ends up with a `default` entry. An
 * unknown field is refused (a typo such as `consentRequird` would otherwise store the default).
 */
export function parseInstanceConfig(value: unknown): InstanceConfig {
  const object = readObject(value, 'body');
  const unknown = Object.keys(object).find((key) => !INSTANCE_FIELDS.includes(key));
  if (unknown !== undefined) throw invalidField(unknown, `one of the fields ${INSTANCE_FIELDS.join(', ')}`, object[unknown]);
  // A bare boolean means the same answer in every group.
  const required = readOptional(object['consentRequired'], (v) =>
    typeof v === 'boolean' ? { default: v } : readMap(v, 'consentRequired', readBoolean),
  ) ?? {};
  return {
    consentRequired: { default: true, ...required },
    geoGroups: readOptional(object['geoGroups'], readGeoGroups) ?? {},
    sharedData: readOptional(object['sharedData'], (v): SharedData => readMap(v, 'sharedData', readSharedValue)),
    purposeConsentRequired: readOptional(object['purposeConsentRequired'], (v) =>
      readArray(v, 'purposeConsentRequired', (item, field) => readString(item, field, purposeIdRule)),
    ),
    xssiPrefix: readOptional(object['xssiPrefix'], (v) => readString(v, 'xssiPrefix', { max: 32 })),
    prompt: readOptional(object['prompt'], (v) => parsePromptConfig(v)),
    tcf: readOptional(object['tcf'], (v) => parseTcfSettings(v)),
  };
}
