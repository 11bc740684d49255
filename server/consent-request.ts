/** Parsers for the `checkConsentHref` and `onUpdateHref` bodies (PRODUCT 3.3, 3.4). */
import type {
  ConsentCheckRequest,
  ConsentMetadata,
  ConsentStateValue,
  ConsentUpdateRequest,
  PurposeConsents,
} from '../src/protocol.ts';
import {
  readBoolean,
  readEnum,
  readInteger,
  readMap,
  readObject,
  readOptional,
  readString,
} from './fields.ts';

export const consentStates: readonly ConsentStateValue[] = ['accepted', 'rejected', 'unknown'];

export const instanceIdRule = {
  max: 100,
  pattern: /^[A-Za-z0-9._:-]+$/,
  patternText: 'an id of 1-100 letters, digits or . _ : -',
} as const;

export function readPurposeConsents(value: unknown, field = 'purposeConsents'): PurposeConsents {
  return readMap(value, field, readBoolean);
}

export function readConsentMetadata(value: unknown, field = 'consentMetadata'): ConsentMetadata {
  const object = readObject(value, field);
  const type = readOptional(object['consentStringType'], (v) => readInteger(v, `${field}.consentStringType`, 0, 99));
  const additional = readOptional(object['additionalConsent'], (v) =>
    readString(v, `${field}.additionalConsent`, { max: 4096 }),
  );
  const gdprApplies = readOptional(object['gdprApplies'], (v) => readBoolean(v, `${field}.gdprApplies`));
  const purposeOne = readOptional(object['purposeOne'], (v) => readBoolean(v, `${field}.purposeOne`));
  return {
    ...(type === null ? {} : { consentStringType: type }),
    ...(additional === null ? {} : { additionalConsent: additional }),
    ...(gdprApplies === null ? {} : { gdprApplies }),
    ...(purposeOne === null ? {} : { purposeOne }),
  };
}

function readCommon(body: unknown) {
  const object = readObject(body, 'body');
  const consentInstanceId = readString(object['consentInstanceId'], 'consentInstanceId', instanceIdRule);
  const consentStateValue = readEnum(object['consentStateValue'], 'consentStateValue', consentStates);
  const consentString = readOptional(object['consentString'], (v) =>
    typeof v === 'string' && v.length === 0 ? '' : readString(v, 'consentString', { max: 8192 }),
  );
  const purposeConsents = readOptional(object['purposeConsents'], (v) => readPurposeConsents(v));
  return { object, consentInstanceId, consentStateValue, consentString: consentString || null, purposeConsents };
}

/** Unknown fields are ignored (clients may send more, such as `clientConfig`). */
export function parseCheckRequest(body: unknown): ConsentCheckRequest {
  const { object, consentString, purposeConsents, ...common } = readCommon(body);
  const matchedGeoGroup = readOptional(object['matchedGeoGroup'], (v) =>
    readString(v, 'matchedGeoGroup', { max: 100 }),
  );
  const isDirty = readOptional(object['isDirty'], (v) => readBoolean(v, 'isDirty')) ?? false;
  return {
    ...common,
    matchedGeoGroup,
    isDirty,
    ...(consentString === null ? {} : { consentString }),
    ...(purposeConsents === null ? {} : { purposeConsents }),
  };
}

export function parseUpdateRequest(body: unknown): ConsentUpdateRequest {
  const { object, consentString, purposeConsents, ...common } = readCommon(body);
  const pageUserId = readString(object['pageUserId'], 'pageUserId', { max: 200 });
  const metadata = readOptional(object['consentMetadata'], (v) => readConsentMetadata(v));
  const tcfPolicyVersion = readOptional(object['tcfPolicyVersion'], (v) =>
    readInteger(v, 'tcfPolicyVersion', 0, 2 ** 31 - 1),
  );
  return {
    ...common,
    pageUserId,
    ...(consentString === null ? {} : { consentString }),
    ...(purposeConsents === null ? {} : { purposeConsents }),
    ...(metadata === null ? {} : { consentMetadata: metadata }),
    ...(tcfPolicyVersion === null ? {} : { tcfPolicyVersion }),
  };
}
