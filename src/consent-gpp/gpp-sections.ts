/** Applicable GPP sections from `consentMetadata.gppSectionId` ("7", "7,8" or "2_7"); [-1] for none. Pure. */
export function applicableSectionsOf(gppSectionId: string | undefined): number[] {
  const ids = (gppSectionId ?? '').split(/[,_]/).filter((part) => /^\d+$/.test(part.trim())).map(Number);
  return ids.length ? ids : [-1];
}
