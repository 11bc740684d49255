/**
 * What the GPP API carries for one decision (docs/consent.md, "Signals for ad tech"): the CMP's
 * own GPP string; else, with the TCF API too, the decision's TC string as the `tcfeuv2`
 * section (2); else, with a `gpp.usnat` config, a `usnat` section (7) from the decision: reject
 * or GPC opt out of sale, sharing and targeted advertising, accept does not. Pure apart from the
 * library model it fills.
 */
import type { CmpApi } from '@iabgpp/cmpapi';
import { type ConsentSignal, STRING_TYPE, stringOfType } from '../consent/signal-source.ts';
import type { GppConfig } from '../wire/gpp-config.ts';
import { gppSectionIds } from '../wire/gpp-sections.ts';

export function applicableSectionsOf(gppSectionId: string | undefined): number[] {
  const ids = gppSectionIds(gppSectionId);
  return ids.length ? ids : [-1];
}

/** usnat opt-out values: 1 opted out, 2 did not. */
const OPTED_OUT = 1;
const NOT_OPTED_OUT = 2;

/** The TC string a decision carries for `__tcfapi` (a type 2 string, or one without a type). */
export const tcStringOf = (signal: ConsentSignal): string => {
  const type = signal.consentMetadata?.consentStringType;
  return type === undefined || type === STRING_TYPE.tcfV2 ? (signal.consentString ?? '') : '';
};

/** Fills `api` with the sections our decision gives when it has no GPP string; returns the applicable sections. */
export function fillOwnSections(
  api: CmpApi,
  signal: ConsentSignal,
  hasTcf: boolean,
  config: GppConfig | null,
): number[] {
  api.clear();
  const tcString = hasTcf ? tcStringOf(signal) : '';
  if (tcString && signal.isConsentRequired !== false) {
    api.setSectionString('tcfeuv2', tcString);
    return [2];
  }
  const { state } = signal;
  if (!config?.usnat || (state !== 'accepted' && state !== 'rejected')) return [-1];
  for (const [name, value] of Object.entries(config.usnat)) api.setFieldValue('usnat', name, value);
  const isOptOut = state === 'rejected' || signal.consentMetadata?.gpc === true;
  for (const name of ['SaleOptOut', 'SharingOptOut', 'TargetedAdvertisingOptOut'])
    api.setFieldValue('usnat', name, isOptOut ? OPTED_OUT : NOT_OPTED_OUT);
  api.setFieldValue('usnat', 'GpcSegmentIncluded', true);
  api.setFieldValue('usnat', 'Gpc', signal.consentMetadata?.gpc === true);
  return [7];
}

export const gppStringOf = (signal: ConsentSignal): string => stringOfType(signal, STRING_TYPE.gpp);
