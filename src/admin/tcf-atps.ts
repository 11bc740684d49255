/**
 * The Google ATP choice of the TCF section (`tcf.googleAtps`): none, all of the server's list,
 * or ATPs chosen by name from `/tcf/google-atps.json` (read by the wire layer's parser within
 * 10 s), searchable like the vendor picker. Without the list, the ids already chosen are kept
 * and shown by number.
 */
import { formatDiagnostic } from '../wire/diagnostic.ts';
import { type AtpName, parseAtpNames } from '../wire/google-atps.ts';
import { $, checkbox, inputOf } from './dom.ts';
import type { PublisherSettings } from './tcf-publisher-settings.ts';

let list: AtpName[] | null = null;
let shown: { settings: PublisherSettings; changed: () => void } | null = null;

/** Loads the server's ATP list once; a failure is said beside the choice and leaves the ids as they are. */
export async function loadAtpList(): Promise<void> {
  let status: string;
  try {
    const response = await fetch('/tcf/google-atps.json', { signal: AbortSignal.timeout(10_000) });
    const parsed = response.ok ? parseAtpNames(await response.json()) : null;
    list = parsed?.value ?? null;
    const [first] = parsed?.diagnostics ?? [];
    status = !response.ok
      ? 'No Google ATP list on this server (set GOOGLE_ATP_LIST): chosen ids are kept, shown by number.'
      : (list ? "Google's ATP list: " + list.length + ' ATPs.' : "Google's ATP list could not be read.") +
        (first ? ' ' + formatDiagnostic('admin', first) : '');
  } catch (error) {
    status = "Google's ATP list did not load (" + (error as Error).name + '): chosen ids are kept, shown by number.';
  }
  $('atp-status').textContent = status;
  if (shown) renderAtps(shown.settings, shown.changed);
}

const nameOf = (id: number): string => list?.find((atp) => atp.id === id)?.name ?? 'ATP ' + id + ', not in the list';

function renderOptions(settings: PublisherSettings, changed: () => void): void {
  const choice = settings.atps;
  if (choice.kind !== 'chosen') return;
  const query = inputOf('atp-search').value.trim().toLowerCase();
  const known = list ?? [];
  const others = choice.ids.filter((id) => !known.some((atp) => atp.id === id)).map((id) => ({ id, name: nameOf(id) }));
  const matching = [...known, ...others]
    .filter((atp) => !query || atp.name.toLowerCase().includes(query) || String(atp.id) === query)
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  $('atp-options').replaceChildren(
    ...matching.map((atp) => {
      const item = document.createElement('li');
      item.append(
        checkbox(
          atp.name + ' (' + atp.id + ')',
          choice.ids.includes(atp.id),
          (on) => {
            choice.ids = on ? [...choice.ids, atp.id] : choice.ids.filter((id) => id !== atp.id);
            changed();
            showChosen(choice.ids);
          },
          { atp: atp.id },
        ),
      );
      return item;
    }),
  );
  showChosen(choice.ids);
}

function showChosen(ids: readonly number[]): void {
  $('atp-selection').textContent =
    ids.length +
    ' ATPs chosen' +
    (ids.length
      ? ': ' +
        [...ids]
          .sort((a, b) => a - b)
          .map(nameOf)
          .join('; ')
      : '') +
    '.';
}

/** Shows `settings.atps`; a change of the choice or of a box goes into `settings`, then `changed`. */
export function renderAtps(settings: PublisherSettings, changed: () => void): void {
  shown = { settings, changed };
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="atp-choice"]'))
    radio.checked = radio.value === settings.atps.kind;
  $('atp-picker').hidden = settings.atps.kind !== 'chosen';
  renderOptions(settings, changed);
}

export function bindAtps(): void {
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="atp-choice"]'))
    radio.addEventListener('change', () => {
      if (!shown || !radio.checked) return;
      const kind = radio.value;
      shown.settings.atps =
        kind === 'all' ? { kind: 'all' } : kind === 'chosen' ? { kind: 'chosen', ids: [] } : { kind: 'none' };
      shown.changed();
      renderAtps(shown.settings, shown.changed);
    });
  inputOf('atp-search').addEventListener('input', () => {
    if (shown) renderOptions(shown.settings, shown.changed);
  });
}
