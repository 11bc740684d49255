/**
 * The `checkConsentHref` and `onUpdateHref` bodies (docs/consent.md, "Remote check" and "Update notification"), read by the shared wire
 * parsers of src/wire/consent.ts in strict mode: any diagnostic is a 400 naming the field.
 */
import type { ConsentCheckRequest, ConsentUpdateRequest } from '../src/wire/protocol.ts';
import {
  parseCheckRequest as parseCheckBody,
  parseUpdateRequest as parseUpdateBody,
} from '../src/wire/consent-bodies.ts';
import { strictValue } from './strict.ts';

export const parseCheckRequest = (body: unknown): ConsentCheckRequest =>
  strictValue(parseCheckBody(body)) as ConsentCheckRequest;

export const parseUpdateRequest = (body: unknown): ConsentUpdateRequest =>
  strictValue(parseUpdateBody(body)) as ConsentUpdateRequest;
