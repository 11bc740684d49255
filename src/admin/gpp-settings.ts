/**
 * The instance editor's US privacy (GPP) settings (docs/us-privacy.md, "The instance's GPP
 * settings"): the approach, and one section's notice and MSPA fields at a time (`usnat` or a
 * state's), the fields the page's parser accepts (src/wire/gpp-config.ts). The values go to the
 * admin API as they were typed; the API checks them with that parser and its error is said in the
 * status line. Fields of a section this form does not list are kept as stored.
 */
import { USNAT_CONFIG_FIELDS } from '../wire/gpp-config.ts';
import { US_STATE_SECTIONS } from '../wire/gpp-state-sections.ts';
import type { InstanceConfig, InstanceGpp } from '../wire/instance-config.ts';
import { $, element, inputOf, selectOf } from './dom.ts';

type Fields = Record<string, number>;

const SECTION_NAMES = ['usnat', ...US_STATE_SECTIONS.map(([, name]) => name)];
const settings = { sections: {} as Record<string, Fields>, shown: 'usnat' };

const fieldInput = (field: string) => inputOf('gpp-field-' + field);

/** The shown section's inputs into `settings`: an empty input removes its field. */
function keepShown(): void {
  const fields = { ...settings.sections[settings.shown] };
  for (const field of USNAT_CONFIG_FIELDS) {
    const text = fieldInput(field).value.trim();
    if (text === '') delete fields[field];
    else fields[field] = Number(text);
  }
  settings.sections[settings.shown] = fields;
}

function renderFields(): void {
  const fields = settings.sections[settings.shown] ?? {};
  for (const field of USNAT_CONFIG_FIELDS) fieldInput(field).value = String(fields[field] ?? '');
}

/** The form once: the section picker and one number input (0-2) per field. */
export function buildGppForm(): void {
  selectOf('gpp-section').replaceChildren(...SECTION_NAMES.map((name) => new Option(name, name)));
  $('gpp-fields').replaceChildren(
    ...USNAT_CONFIG_FIELDS.map((field) =>
      element(
        'label',
        {},
        field,
        element('input', { id: 'gpp-field-' + field, type: 'number', min: '0', max: '2', step: '1' }),
      ),
    ),
  );
  $('gpp-section').addEventListener('change', () => {
    keepShown();
    settings.shown = selectOf('gpp-section').value;
    renderFields();
  });
}

export function showGpp(config: InstanceConfig): void {
  const { approach, ...sections } = config.gpp ?? {};
  selectOf('gpp-approach').value = approach ?? '';
  settings.sections = Object.fromEntries(Object.entries(sections).map(([name, fields]) => [name, { ...fields }]));
  renderFields();
  $('gpp-json').textContent = JSON.stringify({ gpp: config.gpp }, null, 2);
}

/** The PATCH body: the approach and every section with a field; nothing set is `"gpp": null`. */
export function gppPatch(): { gpp: InstanceGpp | null } {
  keepShown();
  const approach = selectOf('gpp-approach').value;
  const sections = Object.entries(settings.sections).filter(([, fields]) => Object.keys(fields).length > 0);
  const gpp = { ...(approach && { approach }), ...Object.fromEntries(sections) } as InstanceGpp;
  return { gpp: Object.keys(gpp).length ? gpp : null };
}
