/**
 * Builds the second layer from a model: sections of items (a name, a description, zero or
 * more switches), then the vendor list with its search (vendor-list.ts, which builds only the
 * rows the reader can reach, so the layer paints fast with a full-size GVL).
 */
import { element, type LayerItem, nextId, renderItem, type VendorRow } from './layer-items.ts';
import type { Messages } from './page-config.ts';
import type { Switches } from './switches.ts';
import { renderVendors } from './vendor-list.ts';

export type LayerSection = { readonly title: string; readonly note?: string; readonly items: readonly LayerItem[] };
export type SecondLayerModel = { readonly sections: readonly LayerSection[]; readonly vendors: readonly VendorRow[] };

/** The layer's sections, built detached (so they can be built ahead of Customize, after the first layer's paint). */
export function buildSecondLayer(model: SecondLayerModel, state: Switches, messages: Messages): HTMLElement[] {
  const parts: HTMLElement[] = [];
  for (const section of model.sections) {
    if (section.items.length === 0) continue;
    const part = element('section');
    const heading = element('h3', section.title);
    heading.id = nextId('h');
    part.setAttribute('aria-labelledby', heading.id);
    part.append(heading);
    if (section.note) part.append(element('p', section.note, 'description'));
    const list = element('ul', '', 'list');
    list.append(...section.items.map((item) => renderItem(item, state)));
    part.append(list);
    parts.push(part);
  }
  if (model.vendors.length) parts.push(renderVendors(model.vendors, state, messages));
  return parts;
}
