/**
 * The `checkConsentHref` and `onUpdateHref` bodies (docs/consent.md, "Remote check" and "Update notification"), read by the shared wire
 * parsers of src/wire/consent.ts in strict mode: any diagnostic is a 400 naming the field. An
 * update's Additional Consent string is read by the AC reader too (src/wire/additional-consent.ts),
 * so a stored record and its receipt never carry one that claims what it cannot show.
 */
import type { ConsentCheckRequest, ConsentUpdateRequest } from '../src/wire/protocol.ts';
import {
  parseCheckRequest as parseCheckBody,
  parseUpdateRequest as parseUpdateBody,
} from '../src/wire/consent-bodies.ts';
import { parseAdditionalConsent } from '../src/wire/additional-consent.ts';
import { strictValue } from './strict.ts';

export const parseCheckRequest = (body: unknown): ConsentCheckRequest =>
  strictValue(parseCheckBody(body)) as ConsentCheckRequest;

export function parseUpdateRequest(body: unknown): ConsentUpdateRequest {
  const update = strictValue(parseUpdateBody(body)) as ConsentUpdateRequest;
  const additionalConsent = update.consentMetadata?.additionalConsent;
  if (additionalConsent !== undefined) {
    const { diagnostics } = parseAdditionalConsent(additionalConsent);
    strictValue({
      value: update,
      diagnostics: diagnostics.map((d) => ({ ...d, field: 'consentMetadata.additionalConsent' })),
    });
  }
  return update;
}
