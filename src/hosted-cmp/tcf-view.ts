/**
 * The second layer of an instance with `tcf` settings, from the (translated) GVL: each purpose
 * with its consent switch and, where a vendor declares legitimate interest for it, the switch
 * that objects to it; the special features; the special purposes and features (shown, not
 * chosen); the publisher's custom purposes after the purposes, each with the switch of its
 * legal basis (`cp:<id>` consent, `cpl:<id>` legitimate interest kept); Google's ATPs of `tcf.googleAtps` as "Other partners", each with its consent switch
 * (`a:<id>`) and privacy policy; every selected vendor with its switches and its GVL v3 details.
 * The vendors are those of the scope, with the declarations their publisher restrictions leave:
 * a purpose restricted to consent shows under consent (and gives the vendor a consent switch),
 * one not allowed is not shown for that vendor.
 */
import { own } from '../wire/values.ts';
import type { GvlEntry, GvlJson, GvlVendor } from '../wire/gvl.ts';
import { formatMessage, type Messages } from './page-config.ts';
import type { LayerItem, VendorRow } from './layer-items.ts';
import type { SecondLayerModel } from './second-layer.ts';
import type { TcfScope } from './tcf-scope.ts';
import type { PageAtp } from './page-config.ts';
import type { CustomPurpose } from '../wire/publisher-tcf.ts';

type Entries = Readonly<Record<string, GvlEntry>> | undefined;

const nameOf = (entries: Entries, id: number) => (entries ? own(entries, String(id))?.name : undefined) ?? `#${id}`;

function items(
  entries: Entries,
  list: readonly number[],
  switches: (id: number) => LayerItem['switches'],
): LayerItem[] {
  return list.map((id) => {
    const entry = entries ? own(entries, String(id)) : undefined;
    return {
      name: entry?.name ?? `#${id}`,
      ...(entry?.description ? { description: entry.description } : {}),
      switches: switches(id),
    };
  });
}

function vendorDetails(gvl: GvlJson, vendor: GvlVendor, messages: Messages, lang: string): Node {
  const list = document.createElement('dl');
  /** The row of `key` (its term from the messages): added, or appended to when it exists. */
  const rows = new Map<string, HTMLElement>();
  const add = (key: string, value: string | Node) => {
    const row = rows.get(key);
    if (row) return row.append(' · ', value);
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = messages[key] ?? '';
    dd.append(value);
    list.append(dt, dd);
    rows.set(key, dd);
  };
  const names = (entries: Entries, ids: readonly number[] | undefined) =>
    (ids ?? []).map((id) => nameOf(entries, id)).join(', ');
  const lists: [string, Entries, readonly number[] | undefined][] = [
    ['consent', gvl.purposes, vendor.purposes],
    ['legitimateInterest', gvl.purposes, vendor.legIntPurposes],
    ['specialPurposes', gvl.specialPurposes, vendor.specialPurposes],
    ['features', gvl.features, vendor.features],
    ['specialFeatures', gvl.specialFeatures, vendor.specialFeatures],
    ['dataCategories', gvl.dataCategories, vendor.dataDeclaration],
  ];
  for (const [key, entries, ids] of lists) if (ids?.length) add(key, names(entries, ids));
  const retention = vendor.dataRetention ? own(vendor.dataRetention, 'stdRetention') : undefined;
  if (typeof retention === 'number') add('retention', formatMessage(messages['days'], retention));
  const maxAge = vendor.cookieMaxAgeSeconds ?? 0;
  add(
    'storage',
    vendor.usesCookies ? formatMessage(messages['cookies'], Math.ceil(maxAge / 86_400)) : (messages['noCookies'] ?? ''),
  );
  const urls = vendor.urls ?? [];
  const url = urls.find((u) => u.langId === lang) ?? urls.find((u) => u.langId === 'en') ?? urls[0];
  // Each link once, shown as its address under its term: the privacy policy; the legitimate-interest
  // claim after the purposes the vendor claims it for.
  for (const [key, href] of [
    ['policy', url?.privacy],
    ['legitimateInterest', url?.legIntClaim],
  ] as const) {
    if (href)
      add(
        key,
        Object.assign(document.createElement('a'), {
          href,
          target: '_blank',
          rel: 'noopener noreferrer',
          textContent: href,
        }),
      );
  }
  return list;
}

export function tcfModel(
  gvl: GvlJson,
  scope: TcfScope,
  messages: Messages,
  lang: string,
  atps: readonly PageAtp[] = [],
  customPurposes: readonly CustomPurpose[] = [],
): SecondLayerModel {
  const consent = messages['consent'] ?? '';
  const legitimate = messages['legitimateInterest'] ?? '';
  const li = new Set(scope.legIntPurposes);
  const consentPurposes = new Set(scope.purposes);
  const purposes = [...new Set([...scope.purposes, ...scope.legIntPurposes])].sort((a, b) => a - b);
  const vendors: VendorRow[] = scope.vendors.map((vendor) => ({
    id: String(vendor.id),
    name: vendor.name,
    // A vendor with no consent purpose gets no consent switch (nothing it could set).
    switches: [
      ...(vendor.purposes.length ? [{ key: `v:${vendor.id}`, label: consent }] : []),
      ...(vendor.legIntPurposes.length ? [{ key: `vl:${vendor.id}`, label: legitimate }] : []),
    ],
    details: () => vendorDetails(gvl, vendor, messages, lang),
  }));
  return {
    sections: [
      {
        title: messages['purposes'] ?? '',
        ...(li.size ? { note: messages['liNote'] } : {}),
        items: [
          ...items(gvl.purposes, purposes, (id) => [
            ...(consentPurposes.has(id) ? [{ key: `p:${id}`, label: consent }] : []),
            ...(li.has(id) ? [{ key: `pl:${id}`, label: legitimate }] : []),
          ]),
          ...customPurposes.map((purpose) => ({
            name: purpose.name,
            ...(purpose.description ? { description: purpose.description } : {}),
            switches: [
              purpose.legalBasis === 'consent'
                ? { key: `cp:${purpose.id}`, label: consent }
                : { key: `cpl:${purpose.id}`, label: legitimate },
            ],
          })),
        ],
      },
      {
        title: messages['specialFeatures'] ?? '',
        items: items(gvl.specialFeatures, scope.specialFeatures, (id) => [{ key: `sf:${id}`, label: consent }]),
      },
      { title: messages['specialPurposes'] ?? '', items: items(gvl.specialPurposes, scope.specialPurposes, () => []) },
      { title: messages['features'] ?? '', items: items(gvl.features, scope.features, () => []) },
      {
        title: messages['otherPartners'] ?? '',
        items: atps.map((atp) => ({
          name: atp.name,
          switches: [{ key: `a:${atp.id}`, label: consent }],
          link: { href: atp.policyUrl, text: messages['policy'] ?? atp.policyUrl },
        })),
      },
    ],
    vendors,
  };
}
