/** Real consent strings for the signal tests, encoded with the IAB's own libraries. */
import { GVL, TCModel, TCString } from '@iabtechlabtcf/core';

const item = (id: number) => ({ id, name: `item ${id}`, description: '', illustrations: [] });
const items = (ids: number[]) => Object.fromEntries(ids.map((id) => [id, item(id)]));
const vendor = (id: number) => ({
  ...item(id),
  purposes: [1, 2],
  legIntPurposes: [],
  flexiblePurposes: [],
  specialPurposes: [],
  features: [],
  specialFeatures: [1],
  policyUrl: 'https://example.com/privacy',
  cookieMaxAgeSeconds: null,
  usesCookies: false,
  deviceStorageDisclosureUrl: null,
});

/** A TC string with purposes 1, 2, 7, vendors 32 and 755 (not 800) and special feature 1. */
export function encodeTcString(): string {
  const gvl = new GVL({
    gvlSpecificationVersion: 3,
    vendorListVersion: 50,
    tcfPolicyVersion: 5,
    lastUpdated: '2024-01-01T00:00:00Z',
    purposes: items([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
    specialPurposes: items([1, 2]),
    features: items([1]),
    specialFeatures: items([1, 2]),
    stacks: {},
    dataCategories: {},
    vendors: { 32: vendor(32), 755: vendor(755), 800: vendor(800) },
  } as unknown as ConstructorParameters<typeof GVL>[0]);
  const model = new TCModel(gvl);
  model.cmpId = 10;
  model.cmpVersion = 1;
  model.purposeConsents.set([1, 2, 7]);
  model.vendorConsents.set([32, 755]);
  model.specialFeatureOptins.set(1);
  return TCString.encode(model);
}

/** A usnat GPP string (section 7) with SaleOptOut 1 and SharingNotice 1. */
export async function encodeGppString(): Promise<string> {
  const scope = globalThis as unknown as { window?: unknown; __gpp?: unknown };
  scope.window ??= globalThis;
  scope.__gpp ??= () => [];
  const { CmpApi } = await import('@iabgpp/cmpapi');
  const api = new CmpApi(10, 1);
  api.setFieldValue('usnat', 'SaleOptOut', 1);
  api.setFieldValue('usnat', 'SharingNotice', 1);
  return api.getGppString();
}
