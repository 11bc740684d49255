/** The GPP section ids of `consentMetadata.gppSectionId` ("7", "7,8" or "2_7"), in order; malformed parts are skipped. Pure. */
export const gppSectionIds = (gppSectionId: string | undefined): number[] =>
  (gppSectionId ?? '')
    .split(/[,_]/)
    .filter((part) => /^\d+$/.test(part.trim()))
    .map(Number);
