/**
 * What Prebid.js's `tcfControl` and `gppControl_usnat` modules would let each vendor the page's
 * strings name do, read in a simplified way that docs/decisions/page-audit-vendors-view.md
 * states rule by rule: `tcfControl`'s default rules with every vendor taken to declare Prebid's
 * default purposes (consent for 1, 2, 4 and 7, purpose 2 flexible), the TC string's publisher
 * restrictions applied; `gppControl_usnat`'s consent-denied test on the `usnat` section when the
 * ping lists section 7 as applicable. Pure.
 */
import type { GppView, PrebidRow, TcView } from './report.ts';

/** The most vendors listed (a page's strings may name thousands). */
export const MAX_VENDORS = 500;

/** Prebid's default purpose declaration for a vendor it has none for. */
const CONSENT_PURPOSES: readonly number[] = [1, 2, 4, 7];
const FLEXIBLE_PURPOSES: readonly number[] = [2];

function restrictionOf(tc: TcView, purpose: number, vendor: number): number | null {
  const found = tc.publisherRestrictions.find(
    (restriction) => restriction.purpose === purpose && restriction.vendors.includes(vendor),
  );
  return found ? found.type : null;
}

/** Prebid's purpose-and-vendor test for one purpose (`getConsent` with the default declaration). */
export function tcfAllows(tc: TcView, purpose: number, vendor: number): boolean {
  let acceptLi = FLEXIBLE_PURPOSES.includes(purpose);
  let acceptConsent = acceptLi || CONSENT_PURPOSES.includes(purpose);
  const restriction = restrictionOf(tc, purpose, vendor);
  if (restriction === 0) acceptConsent = acceptLi = false;
  else if (restriction === 1) acceptLi = false;
  else if (restriction === 2) acceptConsent = false;
  const purposeOk =
    (acceptConsent && tc.purposeConsents.includes(purpose)) ||
    (acceptLi && tc.purposeLegitimateInterests.includes(purpose));
  const vendorOk =
    (acceptConsent && tc.vendorConsents.includes(vendor)) ||
    (acceptLi && tc.vendorLegitimateInterests.includes(vendor));
  return purposeOk && vendorOk;
}

const field = (fields: Readonly<Record<string, unknown>>, name: string): unknown =>
  Object.hasOwn(fields, name) ? fields[name] : undefined;
const at = (value: unknown, index: number): unknown => (Array.isArray(value) ? value[index] : undefined);
const isApplicable = (value: unknown) => value !== undefined && value !== null && value !== 0;

/** `gppControl_usnat`'s consent-denied test on a `usnat` section's fields. */
export function usnatDenies(fields: Readonly<Record<string, unknown>>): boolean {
  const children = field(fields, 'KnownChildSensitiveDataConsents');
  const basicDenied =
    field(fields, 'MspaServiceProviderMode') === 1 ||
    field(fields, 'Gpc') === 1 ||
    field(fields, 'Gpc') === true ||
    field(fields, 'PersonalDataConsents') === 2 ||
    at(children, 0) === 1 ||
    at(children, 2) === 1 ||
    isApplicable(at(children, 1)) ||
    field(fields, 'MspaCoveredTransaction') === 0;
  const scopeDenied = ['Sale', 'Sharing', 'TargetedAdvertising'].some((scope) => {
    const optOut = field(fields, `${scope}OptOut`);
    const notice = field(fields, `${scope}OptOutNotice`);
    return optOut === 1 || notice === 2 || (optOut === 2 && notice === 0);
  });
  const sharingNotice = field(fields, 'SharingNotice');
  return (
    basicDenied || scopeDenied || sharingNotice === 2 || (field(fields, 'SharingOptOut') === 2 && sharingNotice === 0)
  );
}

/** The vendors a TC string names: consents, legitimate interests, disclosed vendors and restrictions. */
export function vendorsOf(tc: TcView): number[] {
  const ids = new Set([
    ...tc.vendorConsents,
    ...tc.vendorLegitimateInterests,
    ...(tc.disclosedVendors ?? []),
    ...tc.publisherRestrictions.flatMap((restriction) => restriction.vendors),
  ]);
  return [...ids].sort((a, b) => a - b).slice(0, MAX_VENDORS);
}

export function prebidRows(tc: TcView | null, gpp: GppView | null): PrebidRow[] {
  const tcfApplies = tc !== null && tc.gdprApplies !== false;
  const usnat = gpp?.applicableSections.includes(7) ? gpp.sections.find((section) => section.id === 7) : undefined;
  const usnatDenied = usnat ? usnatDenies(usnat.fields) : false;
  const vendors: (number | null)[] = tcfApplies && tc ? vendorsOf(tc) : usnat ? [null] : [];
  return vendors.map((vendor) => {
    const deniedBy: string[] = [];
    const tcfRule = (purpose: number) => {
      const ok = vendor === null || !tcfApplies || !tc || tcfAllows(tc, purpose, vendor);
      if (!ok) deniedBy.push(`tcfControl purpose ${purpose}`);
      return ok;
    };
    const syncUser = tcfRule(1);
    const fetchBids = tcfRule(2);
    // transmitEids: a purpose from 2 to 10 with the purpose's and the vendor's legal basis.
    const eidPurposes = [2, 3, 4, 5, 6, 7, 8, 9, 10];
    const eidsByTcf =
      vendor === null || !tcfApplies || !tc || eidPurposes.some((purpose) => tcfAllows(tc, purpose, vendor));
    if (!eidsByTcf) deniedBy.push('tcfControl purposes 2-10');
    if (usnatDenied) deniedBy.push('gppControl_usnat');
    return {
      vendor,
      syncUser: syncUser && !usnatDenied,
      fetchBids,
      transmitEids: eidsByTcf && !usnatDenied,
      deniedBy,
    };
  });
}
