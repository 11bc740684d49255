/** Consent lifetime (PRODUCT 3.11): whether a stored decision is older than its state allows. */
import type { StoredConsent } from '../wire/consent.ts';
import type { ConsentLifetime } from '../wire/consent-lifetime.ts';

const DAY_MS = 86_400_000;

export const isExpired = ({ state, time }: StoredConsent, lifetime: ConsentLifetime, now: number): boolean => now - time > lifetime[state] * DAY_MS;
