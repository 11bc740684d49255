/**
 * The second layer's vendor list and its search, built for a full-size GVL (about 1,000
 * vendors): only the rows the reader can reach are in the document. The layer opens with a
 * screenful; the next batch is added when the end of the list comes within a screen of the
 * viewport (scrolling), and when keyboard focus reaches one of the last rows, so Tab walks
 * every vendor. The search has a visible label; a search starts again from its first matches
 * and announces their count. Each row carries its place in the whole list (`aria-posinset`,
 * `aria-setsize`); a row once built is reused, and switch state lives in the switch map, so
 * nothing chosen is lost.
 */
import { element, renderVendor, type VendorRow } from './layer-items.ts';
import { formatMessage, type Messages } from './page-config.ts';
import type { Switches } from './switches.ts';

const FIRST_ROWS = 12;
const BATCH_ROWS = 40;
/** Focus this close to the end of the built rows builds the next batch. */
const FOCUS_MARGIN = 3;

export function renderVendors(vendors: readonly VendorRow[], state: Switches, messages: Messages): HTMLElement {
  const section = element('section', '', 'vendors');
  const heading = element('h3', messages['vendors']);
  heading.id = 'vendors-title';
  section.setAttribute('aria-labelledby', heading.id);
  const search = Object.assign(element('input', '', 'search'), {
    type: 'search',
    id: 'vendor-search',
    autocomplete: 'off',
  });
  // A visible label, not only an accessible name.
  const label = Object.assign(element('label', messages['search']), { htmlFor: search.id });
  search.setAttribute('aria-controls', 'vendor-list');
  const status = element('p', formatMessage(messages['partners'], vendors.length), 'status');
  status.setAttribute('aria-live', 'polite');
  const list = element('ul', '', 'list');
  list.id = 'vendor-list';
  const end = element('div');
  section.append(heading, label, search, status, list, end);

  const rows = new Map<VendorRow, HTMLLIElement>();
  const names = vendors.map((vendor) => vendor.name.toLocaleLowerCase());
  let matches = vendors;
  let built = 0;
  const grow = (count: number) => {
    const batch: HTMLLIElement[] = [];
    for (const vendor of matches.slice(built, built + count)) {
      const row = rows.get(vendor) ?? rows.set(vendor, renderVendor(vendor, state, messages)).get(vendor)!;
      row.setAttribute('aria-posinset', String(++built));
      row.setAttribute('aria-setsize', String(matches.length));
      batch.push(row);
    }
    list.append(...batch);
  };
  // The end marker within a screen of the viewport: one more batch, then look again (observing
  // anew reports the marker's position even when it did not cross the margin).
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting) || built >= matches.length) return;
      grow(BATCH_ROWS);
      look();
    },
    { root: document, rootMargin: '100% 0px' },
  );
  const look = () => {
    observer.unobserve(end);
    observer.observe(end);
  };
  list.addEventListener('focusin', (event) => {
    const row = (event.target as Element).closest('li');
    if (row && row.parentNode === list && built - Number(row.getAttribute('aria-posinset')) < FOCUS_MARGIN)
      grow(BATCH_ROWS);
  });
  let pending = 0;
  search.addEventListener('input', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      const query = search.value.trim().toLocaleLowerCase();
      matches = query ? vendors.filter((_, index) => names[index]!.includes(query)) : vendors;
      built = 0;
      list.replaceChildren();
      grow(FIRST_ROWS);
      look();
      status.textContent = matches.length
        ? formatMessage(messages['partners'], matches.length)
        : (messages['noMatch'] ?? '');
    });
  });
  grow(FIRST_ROWS);
  requestAnimationFrame(look);
  return section;
}
