/**
 * An instance's `tcf` settings (admin API): the GVL vendors the site works with, the mapping of
 * its purposes to TCF purposes, the special features it uses, its country and the CMP ids that
 * its TC strings carry. Parsed alone (types and ranges), then checked against the server's GVL:
 * an id the GVL does not have is a 400 naming it.
 */
import type { TcfSettings } from '../src/tcf/tc-string.ts';
import type { GvlJson } from '../src/wire/gvl.ts';
import { invalidField } from './errors.ts';
import { readArray, readInteger, readMap, readObject, readOptional, readString } from './fields.ts';

/** The settings an instance stores; the frame adds the reader's `consentLanguage`. */
export type InstanceTcf = Omit<TcfSettings, 'consentLanguage'>;

const TCF_FIELDS = ['cmpId', 'cmpVersion', 'vendors', 'purposes', 'specialFeatures', 'publisherCountryCode'];
const ids = (value: unknown, field: string, max: number, maxItems = 100) =>
  readArray(value, field, (item, itemField) => readInteger(item, itemField, 1, max), maxItems);

export function parseTcfSettings(value: unknown, field = 'tcf'): InstanceTcf {
  const object = readObject(value, field);
  const unknown = Object.keys(object).find((key) => !TCF_FIELDS.includes(key));
  if (unknown !== undefined) throw invalidField(`${field}.${unknown}`, `one of the fields ${TCF_FIELDS.join(', ')}`, object[unknown]);
  const vendors = ids(object['vendors'], `${field}.vendors`, 65_535, 5000);
  const duplicate = vendors.findIndex((id, index) => vendors.indexOf(id) !== index);
  if (duplicate >= 0) throw invalidField(`${field}.vendors[${duplicate}]`, 'each vendor once', vendors[duplicate]);
  const purposes = readOptional(object['purposes'], (v) => readMap(v, `${field}.purposes`, (item, itemField) => ids(item, itemField, 24, 24)));
  const specialFeatures = readOptional(object['specialFeatures'], (v) => ids(v, `${field}.specialFeatures`, 12, 12));
  const country = readOptional(object['publisherCountryCode'], (v) =>
    readString(v, `${field}.publisherCountryCode`, { max: 2, pattern: /^[A-Za-z]{2}$/, patternText: 'a two-letter country code' }).toUpperCase(),
  );
  return {
    // CMP ids 0 and 1 are not valid in a TC string.
    cmpId: readInteger(object['cmpId'], `${field}.cmpId`, 2, 4095),
    cmpVersion: readInteger(object['cmpVersion'], `${field}.cmpVersion`, 1, 4095),
    vendors,
    ...(purposes === null ? {} : { purposes }),
    ...(specialFeatures === null ? {} : { specialFeatures }),
    ...(country === null ? {} : { publisherCountryCode: country }),
  };
}

/** Throws a 400 naming the first vendor, purpose or special feature id the GVL does not have. */
export function checkTcfAgainstGvl(tcf: InstanceTcf, gvl: GvlJson, field = 'tcf'): void {
  const where = `id of the vendor list (version ${gvl.vendorListVersion})`;
  tcf.vendors.forEach((id, index) => {
    const vendor = Object.hasOwn(gvl.vendors, String(id)) ? gvl.vendors[String(id)] : undefined;
    if (!vendor || vendor.deletedDate) throw invalidField(`${field}.vendors[${index}]`, `a vendor ${where}`, id);
  });
  for (const [name, list] of Object.entries(tcf.purposes ?? {})) {
    list.forEach((id, index) => {
      if (!Object.hasOwn(gvl.purposes, String(id))) throw invalidField(`${field}.purposes.${name}[${index}]`, `a purpose ${where}`, id);
    });
  }
  (tcf.specialFeatures ?? []).forEach((id, index) => {
    if (!Object.hasOwn(gvl.specialFeatures, String(id))) throw invalidField(`${field}.specialFeatures[${index}]`, `a special feature ${where}`, id);
  });
}
