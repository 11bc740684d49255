/**
 * An instance's `tcf` settings (admin API), read with the instance config (types and ranges,
 * src/wire/instance-config.ts), then checked here against the server's GVL: an id the GVL does
 * not have is a 400 naming it, and so is a publisher restriction that a vendor's declarations
 * do not allow (src/tcf/restrictions.ts).
 */
import type { InstanceTcf } from '../src/wire/instance-config.ts';
import type { GvlJson } from '../src/wire/gvl.ts';
import { invalidField } from './errors.ts';
import { USABLE_FOR, unusableRestrictions } from '../src/tcf/restrictions.ts';

/** Throws a 400 naming the first vendor, purpose or special feature id the GVL does not have. */
export function checkTcfAgainstGvl(tcf: InstanceTcf, gvl: GvlJson, field = 'tcf'): void {
  const where = `id of the vendor list (version ${gvl.vendorListVersion})`;
  tcf.vendors.forEach((id, index) => {
    const vendor = Object.hasOwn(gvl.vendors, String(id)) ? gvl.vendors[String(id)] : undefined;
    if (!vendor || vendor.deletedDate) throw invalidField(`${field}.vendors[${index}]`, `a vendor ${where}`, id);
  });
  for (const [name, list] of Object.entries(tcf.purposes ?? {})) {
    list.forEach((id, index) => {
      if (!Object.hasOwn(gvl.purposes, String(id)))
        throw invalidField(`${field}.purposes.${name}[${index}]`, `a purpose ${where}`, id);
    });
  }
  (tcf.specialFeatures ?? []).forEach((id, index) => {
    if (!Object.hasOwn(gvl.specialFeatures, String(id)))
      throw invalidField(`${field}.specialFeatures[${index}]`, `a special feature ${where}`, id);
  });
  const restrictions = tcf.publisherRestrictions ?? [];
  const [unusable] = unusableRestrictions(gvl, restrictions);
  if (unusable) {
    const { purpose, type, vendors } = restrictions[unusable.index]!;
    const at = vendors.indexOf(unusable.vendors[0]!);
    throw invalidField(
      `${field}.publisherRestrictions[${unusable.index}].vendors[${at}]`,
      `${type} on purpose ${purpose}: ${USABLE_FOR[type]}`,
      unusable.vendors[0],
    );
  }
}
