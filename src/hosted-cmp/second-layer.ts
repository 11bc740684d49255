/**
 * Renders the second layer from a model: sections of items (a name, a description, zero or
 * more switches) and the vendor list with its search. Vendor rows are created once, on demand,
 * a first screenful at once and the rest in chunks between frames, so the layer paints fast
 * with a full-size GVL (about 1,000 vendors); a vendor's details are built when opened.
 */
import type { Messages } from './page-config.ts';
import { createSwitch, type Switches } from './switches.ts';

export type SwitchSpec = { readonly key: string; readonly label: string };
export type LayerItem = { readonly name: string; readonly description?: string; readonly switches: readonly SwitchSpec[] };
export type LayerSection = { readonly title: string; readonly note?: string; readonly items: readonly LayerItem[] };
export type VendorRow = { readonly id: string; readonly name: string; readonly switches: readonly SwitchSpec[]; details(): Node | null };
export type SecondLayerModel = { readonly sections: readonly LayerSection[]; readonly vendors: readonly VendorRow[] };

const FIRST_ROWS = 30;
const CHUNK_ROWS = 200;
let ids = 0;

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text = '', className = ''): HTMLElementTagNameMap[K] =>
  Object.assign(document.createElement(tag), { textContent: text, className });

function renderItem(item: LayerItem, state: Switches): HTMLLIElement {
  const li = element('li', '', 'item');
  const row = element('div', '', 'row');
  const name = element('span', item.name, 'name');
  name.id = `n${++ids}`;
  row.append(name, ...item.switches.map((s) => createSwitch(state, s.key, s.label, name.id)));
  li.append(row);
  if (item.description) li.append(element('p', item.description, 'description'));
  return li;
}

function renderVendor(vendor: VendorRow, state: Switches, messages: Messages): HTMLLIElement {
  const li = renderItem({ name: vendor.name, switches: vendor.switches }, state);
  li.className = 'item vendor';
  const details = element('details');
  const summary = element('summary', messages['details']);
  summary.setAttribute('aria-describedby', li.querySelector('.name')!.id);
  details.append(summary);
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) {
      const content = vendor.details();
      if (content) details.append(content);
    }
  }, { passive: true });
  li.append(details);
  return li;
}

/** The vendor list with a search field; returns the section. */
function renderVendors(vendors: readonly VendorRow[], state: Switches, messages: Messages): HTMLElement {
  const section = element('section', '', 'vendors');
  const heading = element('h3', messages['vendors']);
  heading.id = 'vendors-title';
  heading.setAttribute('elementtiming', 'cmp-vendors');
  section.setAttribute('aria-labelledby', heading.id);
  const search = element('input', '', 'search');
  Object.assign(search, { type: 'search', id: 'vendor-search', autocomplete: 'off' });
  search.setAttribute('aria-label', messages['search'] ?? '');
  const status = element('p', '', 'status');
  status.setAttribute('aria-live', 'polite');
  const list = element('ul', '', 'list');
  list.id = 'vendor-list';
  section.append(heading, search, status, list);

  const rows = new Map<string, HTMLLIElement>();
  const rowOf = (vendor: VendorRow) => rows.get(vendor.id) ?? rows.set(vendor.id, renderVendor(vendor, state, messages)).get(vendor.id)!;
  const names = vendors.map((vendor) => vendor.name.toLocaleLowerCase());
  let job = 0;
  const show = (matches: readonly VendorRow[]) => {
    const current = ++job;
    status.textContent = matches.length ? (messages['partners'] ?? '').replace('{n}', String(matches.length)) : (messages['noMatch'] ?? '');
    list.replaceChildren(...matches.slice(0, FIRST_ROWS).map(rowOf));
    const more = (from: number) => {
      if (current !== job || from >= matches.length) return;
      list.append(...matches.slice(from, from + CHUNK_ROWS).map(rowOf));
      setTimeout(() => more(from + CHUNK_ROWS), 0);
    };
    // The next rows after the first paint: two frames on, then one chunk per task.
    requestAnimationFrame(() => requestAnimationFrame(() => more(FIRST_ROWS)));
  };
  let pending = 0;
  search.addEventListener('input', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const query = search.value.trim().toLocaleLowerCase();
      show(query ? vendors.filter((_, index) => names[index]!.includes(query)) : vendors);
    });
  });
  show(vendors);
  return section;
}

export function renderSecondLayer(container: HTMLElement, model: SecondLayerModel, state: Switches, messages: Messages): void {
  const parts: HTMLElement[] = [];
  for (const section of model.sections) {
    if (section.items.length === 0) continue;
    const part = element('section');
    const heading = element('h3', section.title);
    heading.id = `h${++ids}`;
    part.setAttribute('aria-labelledby', heading.id);
    part.append(heading);
    if (section.note) part.append(element('p', section.note, 'description'));
    const list = element('ul', '', 'list');
    list.append(...section.items.map((item) => renderItem(item, state)));
    part.append(list);
    parts.push(part);
  }
  if (model.vendors.length) parts.push(renderVendors(model.vendors, state, messages));
  container.replaceChildren(...parts);
}
