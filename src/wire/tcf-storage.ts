/**
 * TCF purpose 1 ("Store and/or access information on a device") from a TCData answer of the page's
 * `__tcfapi` (`getTCData` or an `addEventListener` callback): the one TCF question the vignette
 * asks (docs/auto-ads.md, "Vignette"). Read field by field; nothing is coerced.
 */
import { isRecord, own } from './values.ts';

/**
 * true when GDPR does not apply or purpose 1 is consented; false when it applies and purpose 1 is
 * not consented; undefined for an answer that is not TCData or is not settled yet (the CMP's
 * prompt is showing: `eventStatus` `cmpuishown`).
 */
export function readTcfStorageConsent(data: unknown): boolean | undefined {
  if (!isRecord(data)) return undefined;
  const applies = own(data, 'gdprApplies');
  if (applies === false) return true;
  if (applies !== true || own(data, 'eventStatus') === 'cmpuishown') return undefined;
  const purpose = own(data, 'purpose');
  const consents = isRecord(purpose) ? own(purpose, 'consents') : undefined;
  return isRecord(consents) && own(consents, '1') === true;
}
