/**
 * A creative frame's consent request to its `<page-ad>`: `{pageAdConsentCall: {callId}}`, as an
 * object or JSON text; `callId` (optional) is a string of up to 100 characters or a number and
 * comes back in the reply. Any other message is not ours: null, no diagnostic.
 */
import type { Parsed } from './diagnostic.ts';
import { collector, drop, isRecord, own, parseJsonText, type Read } from './values.ts';

export type CreativeConsentCall = { readonly callId: string | number | null };

const readCallId: Read<string | number> = (into, value, field) =>
  (typeof value === 'string' && value.length <= 100) || (typeof value === 'number' && Number.isFinite(value))
    ? value
    : drop(into, field, 'a string of up to 100 characters or a number', value);

export function parseCreativeConsentCall(data: unknown): Parsed<CreativeConsentCall | null> {
  const into = collector('ad-consent-call-invalid');
  const message = typeof data === 'string' ? parseJsonText(data) : data;
  const call = isRecord(message) ? own(message, 'pageAdConsentCall') : undefined;
  if (call === undefined) return { value: null, diagnostics: [] };
  if (!isRecord(call)) return { value: drop(into, 'pageAdConsentCall', 'an object', call) ?? null, diagnostics: into.diagnostics };
  const callId = own(call, 'callId') ?? null;
  const value = callId === null ? null : readCallId(into, callId, 'pageAdConsentCall.callId');
  return { value: value === undefined ? null : { callId: value }, diagnostics: into.diagnostics };
}
