/**
 * The US state sections of the GPP (docs/decisions/gpp-state-sections.md): the subdivision each
 * covers, the section's name and its id, as far as the IAB library we ship encodes them
 * (`@iabgpp/cmpapi` 3.2: ids 8 to 27, in this order). Kept apart from gpp-sections.ts, which the
 * runtime's consent macros bundle. Pure.
 */
export const US_STATE_SECTIONS: readonly (readonly [subdivision: string, name: string, id: number])[] =
  'ca va co ut ct fl mt or tx de ia ne nh nj tn mn md in ky ri'
    .split(' ')
    .map((state, index) => [`us-${state}`, `us${state}`, 8 + index] as const);
