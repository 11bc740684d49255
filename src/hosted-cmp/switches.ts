/**
 * The second layer's choices: one boolean per switch key (`p:1` purpose consent, `pl:2`
 * legitimate interest kept, `sf:1` special feature, `v:755` vendor consent, `vl:755` vendor
 * legitimate interest kept, `c:<id>` an instance's own purpose), and the switch elements that
 * edit them. The state lives here, not in the DOM, so rows rendered later or filtered out by
 * the search keep their value.
 */
export type Switches = Map<string, boolean>;

let counter = 0;

/** A labelled switch bound to `key` of `state`; `labelledBy` names the thing it is about. */
export function createSwitch(state: Switches, key: string, label: string, labelledBy: string): HTMLLabelElement {
  const wrapper = document.createElement('label');
  wrapper.className = 'switch';
  const input = document.createElement('input');
  const text = document.createElement('span');
  text.id = `s${++counter}`;
  text.textContent = label;
  input.type = 'checkbox';
  input.setAttribute('role', 'switch');
  input.dataset['key'] = key;
  input.checked = state.get(key) === true;
  input.setAttribute('aria-labelledby', `${labelledBy} ${text.id}`);
  input.addEventListener('change', () => state.set(key, input.checked));
  wrapper.append(input, text);
  return wrapper;
}

/** The ids of `prefix` keys that are on (`ids(state, 'p')` -> consented purposes). */
export function idsOn(state: Switches, prefix: string): number[] {
  const ids: number[] = [];
  for (const [key, on] of state) {
    const [kind, id] = key.split(':');
    if (on && kind === prefix) ids.push(Number(id));
  }
  return ids.sort((a, b) => a - b);
}
