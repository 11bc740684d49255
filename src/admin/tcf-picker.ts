/**
 * The TCF settings of an instance: the server's GVL, the instance's page purposes and their
 * mapping to TCF purposes (and back), its special features and vendors. Vendors are shown a page
 * at a time, every one reachable with Previous/Next; "Select all shown" and "Clear shown" act on
 * the whole filter. The GVL is read by the wire layer's parser.
 */
import { formatDiagnostic } from '../wire/diagnostic.ts';
import { type GvlJson, type GvlVendor, parseGvl } from '../wire/gvl.ts';
import type { InstanceConfig, InstanceTcf } from '../wire/instance-config.ts';
import { $, buttonOf, checkbox, element, inputOf } from './dom.ts';

const pageSize = 50;
const picker = {
  gvl: null as GvlJson | null,
  selected: new Set<string>(),
  tcf: null as InstanceTcf | null,
  mapping: {} as Record<string, Set<number>>,
  specialFeatures: new Set<number>(),
  page: 0,
};
const byId = (a: number, b: number) => a - b;
const gvl = () => picker.gvl!;
const purposeNames = (ids: readonly number[]) => ids.map((id) => gvl().purposes[id]?.name ?? '#' + id).join('; ');
const declaredPurposes = () =>
  new Set(
    [...picker.selected].flatMap((id) => {
      const v = gvl().vendors[id];
      return v ? [...v.purposes, ...v.legIntPurposes] : [];
    }),
  );
const pagePurposes = () => [
  ...new Set(
    inputOf('page-purposes')
      .value.split(/[\s,]+/)
      .filter(Boolean),
  ),
];

/** The GVL, read by the wire layer's parser, within 10 s; without it the section says why and saves nothing. */
export async function loadGvl(): Promise<void> {
  const response = await fetch('/tcf/vendor-list.json', { signal: AbortSignal.timeout(10_000) }).catch(
    (error: Error) => error,
  );
  if (response instanceof Error || !response.ok) {
    $('gvl-status').textContent =
      (response instanceof Error
        ? 'The vendor list did not load (' + response.name + ')'
        : 'No vendor list on this server (set TCF_VENDOR_LIST)') + ': TCF settings cannot be saved.';
    return;
  }
  const { value, diagnostics } = parseGvl(await response.json().catch(() => undefined));
  const [first] = diagnostics;
  picker.gvl = value;
  $('gvl-status').textContent =
    (value
      ? 'Vendor list version ' + value.vendorListVersion + ', ' + Object.keys(value.vendors).length + ' vendors.'
      : 'The vendor list could not be read: TCF settings cannot be saved.') +
    (first
      ? ' ' +
        formatDiagnostic('admin', first) +
        (diagnostics.length > 1 ? ' (and ' + (diagnostics.length - 1) + ' more)' : '')
      : '');
  renderTcf();
}

export const hasGvl = (): boolean => picker.gvl !== null;

/** The name of TCF purpose `id` in the GVL ("Purpose 3" without one). */
export const purposeName = (id: number): string => picker.gvl?.purposes[id]?.name ?? 'Purpose ' + id;

/** The vendors selected, with their GVL names, by name. */
export const selectedVendors = (): { readonly id: number; readonly name: string }[] =>
  [...picker.selected]
    .map((id) => ({ id: Number(id), name: picker.gvl?.vendors[id]?.name ?? 'Vendor ' + id }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);

let selectionListener = (): void => {};
/** Calls `listener` whenever the vendor selection changes (the restrictions offer the selected vendors). */
export const whenSelectionChanges = (listener: () => void): void => {
  selectionListener = listener;
};

export function showTcf(config: InstanceConfig): void {
  const tcf = config.tcf;
  picker.tcf = tcf ?? null;
  picker.selected = new Set((tcf?.vendors ?? []).map(String));
  picker.mapping = Object.fromEntries(Object.entries(tcf?.purposes ?? {}).map(([name, ids]) => [name, new Set(ids)]));
  picker.specialFeatures = new Set(tcf?.specialFeatures ?? []);
  picker.page = 0;
  inputOf('page-purposes').value = [
    ...new Set([...(config.purposeConsentRequired ?? []), ...Object.keys(tcf?.purposes ?? {})]),
  ].join(', ');
  // A number field takes its value as a string; an absent one is empty.
  inputOf('tcf-cmp-id').value = String(tcf?.cmpId ?? '');
  inputOf('tcf-cmp-version').value = String(tcf?.cmpVersion ?? 1);
  inputOf('tcf-country').value = tcf?.publisherCountryCode ?? '';
  renderTcf();
}

function renderTcf(): void {
  if (!picker.gvl) return;
  renderMapping();
  renderSpecialFeatures();
  renderVendors();
  selectionListener();
}

/** One group of TCF purpose boxes per page purpose, and the mapping read back per TCF purpose. */
export function renderMapping(): void {
  const purposes = Object.values(gvl().purposes).sort((a, b) => a.id - b.id);
  const declared = declaredPurposes();
  $('purpose-mapping').replaceChildren(
    ...pagePurposes().map((name) => {
      const mapped = (picker.mapping[name] ??= new Set());
      const group = element(
        'fieldset',
        { className: 'choices' },
        element('legend', { textContent: name + ': TCF purposes' }),
      );
      group.dataset['pagePurpose'] = name;
      group.append(
        ...purposes.map((purpose) =>
          checkbox(purpose.id + '. ' + purpose.name, mapped.has(purpose.id), (on) => {
            if (on) mapped.add(purpose.id);
            else mapped.delete(purpose.id);
            renderMapping();
          }),
        ),
      );
      if (mapped.size === 0)
        group.append(
          element('p', {
            className: 'error',
            textContent: 'Map ' + name + ' to at least one TCF purpose: unmapped, it is never granted.',
          }),
        );
      return group;
    }),
  );
  $('tcf-purpose-map').replaceChildren(
    ...purposes.map((purpose) => {
      const names = pagePurposes().filter((name) => picker.mapping[name]?.has(purpose.id));
      const note = declared.has(purpose.id) ? '' : ' (no selected vendor declares it)';
      return element('li', {
        textContent: purpose.id + '. ' + purpose.name + ': ' + (names.join(', ') || 'no page purpose') + note,
      });
    }),
  );
}

function renderSpecialFeatures(): void {
  const declared = new Set([...picker.selected].flatMap((id) => gvl().vendors[id]?.specialFeatures ?? []));
  const legend = $('special-features').querySelector('legend')!;
  const features = Object.values(gvl().specialFeatures).sort((a, b) => a.id - b.id);
  $('special-features').replaceChildren(
    legend,
    ...features.map((feature) =>
      checkbox(
        feature.id + '. ' + feature.name + (declared.has(feature.id) ? '' : ' (no selected vendor declares it)'),
        picker.specialFeatures.has(feature.id),
        (on) => {
          if (on) picker.specialFeatures.add(feature.id);
          else picker.specialFeatures.delete(feature.id);
        },
      ),
    ),
  );
}

const isFiltered = () => inputOf('vendor-search').value.trim() !== '' || inputOf('vendor-selected-only').checked;

/** The vendors of the current filter (search, selected only), by name. */
function filteredVendors(): GvlVendor[] {
  const query = inputOf('vendor-search').value.trim().toLowerCase();
  const selectedOnly = inputOf('vendor-selected-only').checked;
  return Object.values(gvl().vendors)
    .filter(
      (v) =>
        !v.deletedDate &&
        (!selectedOnly || picker.selected.has(String(v.id))) &&
        (!query || v.name.toLowerCase().includes(query) || String(v.id) === query),
    )
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

function vendorItem(vendor: GvlVendor, asked: ReadonlySet<number>): HTMLLIElement {
  const isSelected = picker.selected.has(String(vendor.id));
  const label = checkbox(
    vendor.name + ' (' + vendor.id + ')',
    isSelected,
    (on) => {
      if (on) picker.selected.add(String(vendor.id));
      else picker.selected.delete(String(vendor.id));
      renderTcf();
    },
    { vendor: vendor.id },
  );
  const purposes = [...vendor.purposes, ...vendor.legIntPurposes];
  const adds = isSelected ? [] : [...new Set(purposes)].filter((id) => !asked.has(id));
  const interests = vendor.legIntPurposes.length
    ? ' | Legitimate interest: ' + purposeNames(vendor.legIntPurposes)
    : '';
  const details = element('small', {
    textContent: 'Purposes: ' + (purposeNames(vendor.purposes) || 'none') + interests,
  });
  if (adds.length)
    details.append(
      ' ',
      element('span', { className: 'adds', textContent: '(adds: ' + purposeNames(adds.sort(byId)) + ')' }),
    );
  return element('li', {}, label, details);
}

export function renderVendors(): void {
  const asked = declaredPurposes();
  const vendors = filteredVendors();
  const pages = Math.max(1, Math.ceil(vendors.length / pageSize));
  picker.page = Math.min(picker.page, pages - 1);
  const first = picker.page * pageSize;
  const shown = vendors.slice(first, first + pageSize);
  $('vendor-options').replaceChildren(...shown.map((vendor) => vendorItem(vendor, asked)));
  $('vendor-range').textContent =
    vendors.length === 0
      ? 'No vendor matches.'
      : 'Vendors ' +
        (first + 1) +
        '-' +
        (first + shown.length) +
        ' of ' +
        vendors.length +
        (isFiltered() ? ' matching' : '') +
        ' (page ' +
        (picker.page + 1) +
        ' of ' +
        pages +
        ').';
  buttonOf('vendor-previous').disabled = picker.page === 0;
  buttonOf('vendor-next').disabled = picker.page >= pages - 1;
  $('tcf-selection').textContent =
    picker.selected.size +
    ' vendors selected; TCF purposes they declare: ' +
    (purposeNames([...asked].sort(byId)) || 'none') +
    '.';
}

export function selectShown(on: boolean): void {
  for (const vendor of filteredVendors()) {
    if (on) picker.selected.add(String(vendor.id));
    else picker.selected.delete(String(vendor.id));
  }
  renderTcf();
}

/** Moves the vendor pages: to the first (a new filter), or by `step`. */
export function turnPage(step: number | null): void {
  picker.page = step === null ? 0 : picker.page + step;
  renderVendors();
}

export type TcfPatch = {
  readonly purposeConsentRequired?: string[] | null;
  readonly tcf: (Partial<InstanceTcf> & { readonly vendors: number[] }) | null;
};

/** The `tcf` settings and page purposes to store, or an error naming what is missing. */
export function tcfPatch(): TcfPatch {
  const names = pagePurposes();
  if (picker.selected.size === 0) return { tcf: null };
  const unmapped = names.filter((name) => !picker.mapping[name]?.size);
  if (unmapped.length)
    throw new Error('Map each purpose asked to at least one TCF purpose (' + unmapped.join(', ') + ' has none).');
  const cmpId = Number(inputOf('tcf-cmp-id').value);
  if (!inputOf('tcf-cmp-id').value || !(cmpId >= 2 && cmpId <= 4095))
    throw new Error('CMP id: enter the IAB id of your CMP (2-4095).');
  const country = inputOf('tcf-country').value.trim();
  const { purposes: _purposes, specialFeatures: _features, publisherCountryCode: _country, ...kept } = picker.tcf ?? {};
  const mapping = Object.fromEntries(names.map((name) => [name, [...picker.mapping[name]!].sort(byId)]));
  const specialFeatures = [...picker.specialFeatures].sort(byId);
  return {
    purposeConsentRequired: names.length ? names : null,
    tcf: {
      ...kept,
      cmpId,
      cmpVersion: Number(inputOf('tcf-cmp-version').value),
      vendors: [...picker.selected].map(Number).sort(byId),
      ...(names.length ? { purposes: mapping } : {}),
      ...(specialFeatures.length ? { specialFeatures } : {}),
      ...(country ? { publisherCountryCode: country } : {}),
    },
  };
}
