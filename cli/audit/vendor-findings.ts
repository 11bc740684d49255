/**
 * `audit-vendor-not-allowed` (docs/validator.md, "The vendors' view"): a request of the journey
 * went to a host of a known TCF vendor (vendor-hosts.ts) while the TC string the page published
 * does not let that vendor store or read an identifier: purpose 1's consent and the vendor's
 * consent, publisher restrictions applied, as Prebid's `tcfControl` reads them
 * (prebid-rules.ts). In the no-decision journey every request counts, in the reject and accept
 * journeys the requests after the decision; a page without a TC string (or where GDPR does not
 * apply) is not judged. One finding per vendor and journey, naming its first request. Pure.
 */
import type { JourneyName } from './journey.ts';
import { tcfAllows } from './prebid-rules.ts';
import type { AuditFinding, RequestEvent, TcView } from './report.ts';
import { hostOf } from './sites.ts';
import { type VendorHost, type VendorHostTable, vendorOfHost } from './vendor-hosts.ts';

/** Why the string does not allow the vendor purpose 1: each missing piece. */
function missingOf(tc: TcView, id: number): string {
  const restriction = tc.publisherRestrictions.find((entry) => entry.purpose === 1 && entry.vendors.includes(id));
  return [
    tc.purposeConsents.includes(1) ? '' : 'no consent for purpose 1',
    tc.vendorConsents.includes(id) ? '' : `no consent for vendor ${id}`,
    restriction && restriction.type !== 1 ? `a publisher restriction of type ${restriction.type} on purpose 1` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function findingOf(vendor: VendorHost, requests: readonly RequestEvent[], tc: TcView): AuditFinding {
  const [first] = requests as [RequestEvent, ...RequestEvent[]];
  const more = requests.length > 1 ? ` and ${requests.length - 1} more request(s)` : '';
  return {
    code: 'audit-vendor-not-allowed',
    subject: 'request',
    phase: first.phase,
    t: first.t,
    what: first.url,
    message: `expected no tag of ${vendor.name} (vendor ${vendor.id}) without the TC string's consent for purpose 1 and for the vendor, got ${first.method} ${first.url}${more} while the string gives ${missingOf(tc, vendor.id)}`,
    initiator: first.initiator,
    hint: `Block the tag until the reader consents to purpose 1 and to vendor ${vendor.id} (data-block-on-consent with the purposes it needs), or list the vendor in the prompt so the reader can consent to it.`,
  };
}

export function judgeVendorTags(
  requests: readonly RequestEvent[],
  tc: TcView | null,
  name: JourneyName,
  table?: VendorHostTable,
): AuditFinding[] {
  if (!tc || tc.gdprApplies === false) return [];
  const byVendor = new Map<number, { vendor: VendorHost; requests: RequestEvent[] }>();
  for (const request of requests) {
    if (name !== 'no-decision' && request.phase === 'before') continue;
    const vendor = vendorOfHost(hostOf(request.url), table);
    if (!vendor || tcfAllows(tc, 1, vendor.id)) continue;
    const entry = byVendor.get(vendor.id) ?? { vendor, requests: [] };
    entry.requests.push(request);
    byVendor.set(vendor.id, entry);
  }
  return [...byVendor.values()].map((entry) => findingOf(entry.vendor, entry.requests, tc));
}
