/**
 * A creative frame's consent request to its `<page-ad>`: `{pageAdConsentCall: {callId}}`;
 * `callId` (optional) is a string of up to 100 characters or a number and comes back in the
 * reply. Any other message is not ours: null, no diagnostic.
 */
import type { Parsed } from './diagnostic.ts';
import { collector, drop, isRecord, own, readFields } from './values.ts';

export type CreativeConsentCall = { readonly callId?: string | number };

const readCall = readFields<CreativeConsentCall>({
  callId: (into, value, field) =>
    (typeof value === 'string' && value.length <= 100) || Number.isFinite(value)
      ? (value as string | number)
      : drop(into, field, 'a string of up to 100 characters or a number', value),
});

export function parseCreativeConsentCall(data: unknown): Parsed<CreativeConsentCall | null> {
  const into = collector('ad-consent-call-invalid');
  const call = isRecord(data) ? own(data, 'pageAdConsentCall') : undefined;
  const value = call === undefined ? null : (readCall(into, call, 'pageAdConsentCall') ?? null);
  return { value: into.diagnostics.length ? null : value, diagnostics: into.diagnostics };
}
