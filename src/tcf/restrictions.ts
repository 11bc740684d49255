/**
 * Publisher restrictions applied to the GVL's vendors (docs/decisions/tcf-publisher-restrictions.md):
 * a restriction is usable for a vendor as the IAB's rules (and `@iabtechlabtcf/core`, which
 * leaves the others out of the string) have it: "notAllowed" when the vendor declares the
 * purpose on either basis, "requireConsent" when it declares it on legitimate interest and
 * flexibly, "requireLi" when it declares it on consent and flexibly. A vendor's declarations
 * under the usable restrictions are what a string grants it: a purpose not allowed is on
 * neither basis, a flexible one moves to the basis required. Pure: no library, no DOM.
 */
import type { GvlJson, GvlVendor } from '../wire/gvl.ts';
import type { PublisherRestriction, RestrictionType } from '../wire/publisher-tcf.ts';

/** Whether `type` on `purpose` can be encoded for `vendor`. */
export function isUsable(vendor: GvlVendor, purpose: number, type: RestrictionType): boolean {
  const isFlexible = vendor.flexiblePurposes.includes(purpose);
  if (type === 'notAllowed') return vendor.purposes.includes(purpose) || vendor.legIntPurposes.includes(purpose);
  if (type === 'requireConsent') return isFlexible && vendor.legIntPurposes.includes(purpose);
  return isFlexible && vendor.purposes.includes(purpose);
}

const vendorOf = (gvl: GvlJson, id: number) =>
  Object.hasOwn(gvl.vendors, String(id)) ? gvl.vendors[String(id)] : undefined;

/** What a vendor must declare for `type` to apply to it (the diagnostic's "expected"). */
export const USABLE_FOR: Readonly<Record<RestrictionType, string>> = {
  notAllowed: 'vendors of the vendor list that declare the purpose',
  requireConsent: 'vendors of the vendor list that declare the purpose flexibly, on legitimate interest',
  requireLi: 'vendors of the vendor list that declare the purpose flexibly, on consent',
};

/** Per restriction (by index), the vendors the GVL does not allow it for (an unknown vendor included); they are left out. */
export function unusableRestrictions(
  gvl: GvlJson,
  restrictions: readonly PublisherRestriction[],
): { index: number; vendors: number[] }[] {
  return restrictions
    .map(({ purpose, type, vendors }, index) => ({
      index,
      vendors: vendors.filter((id) => {
        const vendor = vendorOf(gvl, id);
        return !vendor || !isUsable(vendor, purpose, type);
      }),
    }))
    .filter((entry) => entry.vendors.length > 0);
}

const sorted = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** `vendor` with its purposes on each basis as the usable restrictions leave them (the same object without any). */
export function restrictedVendor(
  vendor: GvlVendor,
  restrictions: readonly PublisherRestriction[] | undefined,
): GvlVendor {
  const types = new Map<number, RestrictionType>();
  for (const { purpose, type, vendors } of restrictions ?? [])
    if (vendors.includes(vendor.id) && isUsable(vendor, purpose, type)) types.set(purpose, type);
  if (!types.size) return vendor;
  const keeps = (basis: RestrictionType) => (id: number) => !types.has(id) || types.get(id) === basis;
  return {
    ...vendor,
    purposes: sorted([
      ...vendor.purposes.filter(keeps('requireConsent')),
      ...vendor.legIntPurposes.filter((id) => types.get(id) === 'requireConsent'),
    ]),
    legIntPurposes: sorted([
      ...vendor.legIntPurposes.filter(keeps('requireLi')),
      ...vendor.purposes.filter((id) => types.get(id) === 'requireLi'),
    ]),
    // A purpose restricted one way is no longer the vendor's to switch.
    flexiblePurposes: vendor.flexiblePurposes.filter((id) => !types.has(id)),
  };
}
