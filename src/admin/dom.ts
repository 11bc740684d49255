/**
 * The admin page's elements by id (the page, `server/pages/admin.html`, has them all) and the
 * two builders its sections use: an element with properties and children, and a labelled
 * checkbox.
 */
export const $ = (id: string): HTMLElement => document.getElementById(id)!;
export const inputOf = (id: string): HTMLInputElement => $(id) as HTMLInputElement;
export const selectOf = (id: string): HTMLSelectElement => $(id) as HTMLSelectElement;
export const textareaOf = (id: string): HTMLTextAreaElement => $(id) as HTMLTextAreaElement;
export const buttonOf = (id: string): HTMLButtonElement => $(id) as HTMLButtonElement;

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]>,
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

/** A checkbox inside its label; `data` goes to the box's `data-*` attributes. */
export function checkbox(
  text: string,
  checked: boolean,
  onChange: (checked: boolean) => void,
  data?: Readonly<Record<string, string | number>>,
): HTMLLabelElement {
  const box = element('input', { type: 'checkbox', checked });
  Object.assign(box.dataset, data);
  box.addEventListener('change', () => onChange(box.checked));
  return element('label', { className: 'inline' }, box, ' ' + text);
}
