/**
 * The element's actions (docs/consent.md, "Actions"): registered by the consent core at its
 * build, carried out by the state part. A module of its own, so that the core imports the names
 * without any of the state part's code.
 */
export const CONSENT_ACTIONS = ['accept', 'reject', 'dismiss', 'prompt', 'setPurpose', 'optOut'] as const;
export type ActionName = (typeof CONSENT_ACTIONS)[number];
