/**
 * One error type and one JSON envelope for every server error:
 * `{"error": {"code", "message"}}`. Codes are stable, documented in docs/errors.md
 * ("Server" section) and never reused.
 */
import { describe } from '../src/wire/diagnostic.ts';

export const ErrorCode = {
  invalidField: 'invalid-field',
  invalidJson: 'invalid-json',
  unsupportedMediaType: 'unsupported-media-type',
  bodyTooLarge: 'body-too-large',
  originNotAllowed: 'origin-not-allowed',
  notFound: 'not-found',
  cdnNotBuilt: 'cdn-not-built',
  adsClientNotFound: 'ads-client-not-found',
  adsConfigFromFile: 'ads-config-from-file',
  adsExperimentUnknown: 'ads-experiment-unknown',
  instanceNotFound: 'instance-not-found',
  userNotFound: 'user-not-found',
  adminDisabled: 'admin-disabled',
  adminUnauthorized: 'admin-unauthorized',
  adminTokenInvalid: 'admin-token-invalid',
  storeUnavailable: 'store-unavailable',
  internalError: 'internal-error',
  rateLimited: 'rate-limited',
  instanceCapReached: 'instance-cap-reached',
  invalidUrl: 'invalid-url',
  badRequest: 'bad-request',
  shuttingDown: 'shutting-down',
  receiptNotFound: 'receipt-not-found',
  requestTimeout: 'request-timeout',
  tcfVendorListMissing: 'tcf-vendor-list-missing',
  tcfTranslationMissing: 'tcf-translation-missing',
  googleAtpListMissing: 'google-atp-list-missing',
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCodeValue;

  constructor(status: number, code: ErrorCodeValue, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export type ErrorEnvelope = { readonly error: { readonly code: string; readonly message: string } };

/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The message is made well-formed: a quoted value shortened by describe() can end inside an
 * astral character (an emoji cut after its first half); that half becomes U+FFFD.
 */
export function errorEnvelope(code: string, message: string): ErrorEnvelope {
  return { error: { code, message: message.replace(LONE_SURROGATE, '\uFFFD') } };
}

/** A 400 that names the field: `consentStateValue: expected one of ..., got "maybe"`. */
export function invalidField(field: string, expected: string, got: unknown): HttpError {
  return new HttpError(400, ErrorCode.invalidField, `${field}: expected ${expected}, got ${describe(got)}`);
}

/** Start-up configuration errors (bad ads config file, bad environment): the server refuses to start. */
export class ConfigError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}
