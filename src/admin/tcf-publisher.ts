/**
 * The TCF section's publisher fields (docs/server.md, "Instances and policies"): publisher
 * restrictions (a purpose, a type and vendors among those selected), the publisher's own TCF
 * and custom purposes, Google's ATPs (tcf-atps.ts) and the site group. The config editor's JSON
 * is their one source: a change in a field is written into it at once, and an edit of the JSON
 * is read back into the fields (tcf-publisher-settings.ts; docs/decisions/admin-tcf-publisher-fields.md).
 */
import { formatDiagnostic } from '../wire/diagnostic.ts';
import { RESTRICTION_TYPES, type RestrictionType } from '../wire/publisher-tcf.ts';
import { isRecord, own, parseJsonText } from '../wire/values.ts';
import { $, checkbox, element, inputOf, textareaOf } from './dom.ts';
import { renderAtps } from './tcf-atps.ts';
import { purposeName, selectedVendors } from './tcf-picker.ts';
import {
  configTextWith,
  type CustomPurposeRow,
  emptySettings,
  type PublisherKey,
  type PublisherSettings,
  type RestrictionRow,
  settingsOf,
} from './tcf-publisher-settings.ts';

const PURPOSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const TYPE_NAMES: Readonly<Record<RestrictionType, string>> = {
  notAllowed: 'Not allowed',
  requireConsent: 'Require consent',
  requireLi: 'Require legitimate interest',
};
let settings = emptySettings();

export const publisherSettings = (): PublisherSettings => settings;

function showProblems(lines: readonly string[]): void {
  $('tcf-settings-problems').replaceChildren(...lines.map((line) => element('li', { textContent: line })));
}

/** Writes the field of `key` into the config editor's JSON (left alone, with a note, while it does not parse). */
function changed(key: PublisherKey): void {
  const text = configTextWith(textareaOf('config').value, settings, [key]);
  if (text === null) {
    showProblems(['The config JSON does not parse: the TCF fields are saved with "Save TCF settings" only.']);
    return;
  }
  textareaOf('config').value = text;
  // What the JSON's publisher keys hold that the server would refuse (from a field, or left from an edit).
  showProblems(readEdited()?.diagnostics.map((d) => formatDiagnostic('admin#config', d)) ?? []);
}

/** The publisher settings of the config editor's JSON (empty: an empty config); undefined when it is not a JSON object. */
function readEdited(): ReturnType<typeof settingsOf> | undefined {
  const text = textareaOf('config').value;
  const config = text.trim() === '' ? {} : parseJsonText(text);
  return isRecord(config) ? settingsOf(own(config, 'tcf')) : undefined;
}

/** Reads the fields from the config editor's JSON; what they cannot hold is listed as the server would refuse it. */
export function readPublisherSettings(): void {
  const read = readEdited();
  if (!read) {
    showProblems(['The config JSON does not parse: the TCF fields show it as last read.']);
    return;
  }
  settings = read.settings;
  renderPublisher();
  showProblems(read.diagnostics.map((d) => formatDiagnostic('admin#config', d)));
}

function select(label: string, options: readonly [string, string][], value: string, onChange: (value: string) => void) {
  const box = element('select', {}, ...options.map(([key, text]) => new Option(text, key, false, key === value)));
  box.addEventListener('change', () => onChange(box.value));
  return element('label', {}, label, box);
}

function restrictionVendors(row: RestrictionRow, number: number): HTMLFieldSetElement {
  const offered = selectedVendors();
  const others = row.vendors.filter((id) => !offered.some((vendor) => vendor.id === id));
  const group = element(
    'fieldset',
    { className: 'choices' },
    element('legend', { textContent: 'Vendors of restriction ' + number }),
  );
  group.append(
    ...[...offered, ...others.map((id) => ({ id, name: 'Vendor ' + id + ', not selected above' }))].map((vendor) =>
      checkbox(vendor.name + ' (' + vendor.id + ')', row.vendors.includes(vendor.id), (on) => {
        row.vendors = on ? [...row.vendors, vendor.id] : row.vendors.filter((id) => id !== vendor.id);
        changed('publisherRestrictions');
      }),
    ),
  );
  if (group.childElementCount === 1)
    group.append(element('p', { className: 'empty', textContent: 'Select vendors above first.' }));
  return group;
}

function restrictionRow(row: RestrictionRow, index: number): HTMLFieldSetElement {
  const number = index + 1;
  const remove = element('button', { type: 'button', textContent: 'Remove restriction ' + number });
  remove.addEventListener('click', () => {
    settings.restrictions.splice(index, 1);
    renderRestrictions();
    changed('publisherRestrictions');
    $('restriction-add').focus();
  });
  const fields = element(
    'div',
    { className: 'row' },
    select(
      'Purpose',
      PURPOSES.map((id) => [String(id), id + '. ' + purposeName(id)]),
      String(row.purpose),
      (value) => {
        row.purpose = Number(value);
        changed('publisherRestrictions');
      },
    ),
    select(
      'Type',
      RESTRICTION_TYPES.map((type) => [type, TYPE_NAMES[type] + ' (' + type + ')']),
      row.type,
      (value) => {
        row.type = value as RestrictionType;
        changed('publisherRestrictions');
      },
    ),
    remove,
  );
  const group = element(
    'fieldset',
    { className: 'choices' },
    element('legend', { textContent: 'Restriction ' + number }),
  );
  group.dataset['restriction'] = String(number);
  group.append(fields, restrictionVendors(row, number));
  return group;
}

export function renderRestrictions(): void {
  $('restrictions').replaceChildren(...settings.restrictions.map(restrictionRow));
}

function purposeBoxes(id: string, list: 'consentPurposes' | 'legitimateInterestPurposes'): void {
  const legend = $(id).querySelector('legend')!;
  $(id).replaceChildren(
    legend,
    ...PURPOSES.map((purpose) =>
      checkbox(purpose + '. ' + purposeName(purpose), settings[list].includes(purpose), (on) => {
        settings[list] = on ? [...settings[list], purpose] : settings[list].filter((other) => other !== purpose);
        changed('publisherPurposes');
      }),
    ),
  );
}

function textField(label: string, input: HTMLInputElement, onInput: (value: string) => void): HTMLLabelElement {
  input.addEventListener('input', () => {
    onInput(input.value);
    changed('publisherPurposes');
  });
  return element('label', {}, label, input);
}

function customRow(row: CustomPurposeRow, index: number): HTMLFieldSetElement {
  const number = index + 1;
  const remove = element('button', { type: 'button', textContent: 'Remove custom purpose ' + number });
  remove.addEventListener('click', () => {
    settings.customPurposes.splice(index, 1);
    renderCustomPurposes();
    changed('publisherPurposes');
    $('custom-purpose-add').focus();
  });
  const group = element(
    'fieldset',
    { className: 'choices' },
    element('legend', { textContent: 'Custom purpose ' + number }),
  );
  group.dataset['customPurpose'] = String(number);
  group.append(
    element(
      'div',
      { className: 'row' },
      textField('Id (1-63)', element('input', { type: 'number', min: '1', max: '63', value: row.id }), (value) => {
        row.id = value;
      }),
      textField('Name', element('input', { maxLength: 200, value: row.name }), (value) => {
        row.name = value;
      }),
      select(
        'Legal basis',
        [
          ['consent', 'Consent'],
          ['legitimateInterest', 'Legitimate interest'],
        ],
        row.legalBasis,
        (value) => {
          row.legalBasis = value as CustomPurposeRow['legalBasis'];
          changed('publisherPurposes');
        },
      ),
    ),
    element(
      'div',
      { className: 'row' },
      textField('Description', element('input', { maxLength: 2000, value: row.description }), (value) => {
        row.description = value;
      }),
      remove,
    ),
  );
  return group;
}

function renderCustomPurposes(): void {
  $('custom-purposes').replaceChildren(...settings.customPurposes.map(customRow));
}

/** Every publisher field from `settings`. */
export function renderPublisher(): void {
  renderRestrictions();
  purposeBoxes('publisher-consent', 'consentPurposes');
  purposeBoxes('publisher-li', 'legitimateInterestPurposes');
  renderCustomPurposes();
  renderAtps(settings, () => changed('googleAtps'));
  inputOf('site-group-name').value = settings.siteGroup.name;
  inputOf('site-group-url').value = settings.siteGroup.url;
}

export function bindPublisher(): void {
  $('restriction-add').addEventListener('click', () => {
    settings.restrictions.push({ purpose: 2, type: 'notAllowed', vendors: [] });
    renderRestrictions();
    changed('publisherRestrictions');
    $('restrictions').querySelector<HTMLElement>('fieldset:last-child select')?.focus();
  });
  $('custom-purpose-add').addEventListener('click', () => {
    const ids = settings.customPurposes.map((row) => Number(row.id)).filter(Number.isInteger);
    settings.customPurposes.push({
      id: String(Math.max(0, ...ids) + 1),
      name: '',
      description: '',
      legalBasis: 'consent',
    });
    renderCustomPurposes();
    changed('publisherPurposes');
    $('custom-purposes').querySelector<HTMLElement>('fieldset:last-child input')?.focus();
  });
  for (const key of ['name', 'url'] as const)
    inputOf('site-group-' + key).addEventListener('input', () => {
      settings.siteGroup[key] = inputOf('site-group-' + key).value;
      changed('siteGroup');
    });
  $('config').addEventListener('input', readPublisherSettings);
}
