/**
 * The second layer's rows: an item (a name, a description, zero or more labelled switches) and
 * a vendor row (an item with a Details disclosure whose content is built when first opened, so
 * a row costs a few elements until the reader asks for more).
 */
import type { Messages } from './page-config.ts';
import { createSwitch, type Switches } from './switches.ts';

export type SwitchSpec = { readonly key: string; readonly label: string };
export type LayerItem = {
  readonly name: string;
  readonly description?: string;
  readonly switches: readonly SwitchSpec[];
  /** A link shown under the item (an ATP's privacy policy). */
  readonly link?: { readonly href: string; readonly text: string };
};
export type VendorRow = {
  readonly id: string;
  readonly name: string;
  readonly switches: readonly SwitchSpec[];
  details(): Node | null;
};

let ids = 0;

/** A fresh element id. */
export const nextId = (prefix: string): string => `${prefix}${++ids}`;

export const element = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  className = '',
): HTMLElementTagNameMap[K] => Object.assign(document.createElement(tag), { textContent: text, className });

export function renderItem(item: LayerItem, state: Switches): HTMLLIElement {
  const li = element('li', '', 'item');
  const row = element('div', '', 'row');
  const name = element('span', item.name, 'name');
  name.id = nextId('n');
  row.append(name, ...item.switches.map((s) => createSwitch(state, s.key, s.label, name.id)));
  li.append(row);
  if (item.description) li.append(element('p', item.description, 'description'));
  if (item.link)
    li.append(
      Object.assign(element('a', item.link.text, 'description'), {
        href: item.link.href,
        target: '_blank',
        rel: 'noopener noreferrer',
      }),
    );
  return li;
}

export function renderVendor(vendor: VendorRow, state: Switches, messages: Messages): HTMLLIElement {
  const li = renderItem({ name: vendor.name, switches: vendor.switches }, state);
  li.className = 'item vendor';
  const details = element('details');
  const summary = element('summary', messages['details']);
  summary.setAttribute('aria-describedby', li.querySelector('.name')!.id);
  details.append(summary);
  details.addEventListener(
    'toggle',
    () => {
      if (details.open && details.childElementCount === 1) {
        const content = vendor.details();
        if (content) details.append(content);
      }
    },
    { passive: true },
  );
  li.append(details);
  return li;
}
