/** Applicable GPP sections from `consentMetadata.gppSectionId`; [-1] for none. Pure. */
import { gppSectionIds } from '../wire/gpp-sections.ts';

export function applicableSectionsOf(gppSectionId: string | undefined): number[] {
  const ids = gppSectionIds(gppSectionId);
  return ids.length ? ids : [-1];
}
