// @vitest-environment happy-dom
/**
 * The GPP API of the GPP part below the browser: `startGppApi` on a signal source the test
 * gives, answering `__gpp` calls from the CMP's usnat string.
 */
import { GppModel } from '@iabgpp/cmpapi';
import { expect, it, vi } from 'vitest';
import { startGppApi } from '../../../src/consent-gpp/gpp-api.ts';
import type { ConsentSignal, SignalSource } from '../../../src/consent/signal-source.ts';

/** A usnat GPP string (section 7) with SaleOptOut 1 and SharingNotice 1. */
function usnatString(): string {
  const model = new GppModel();
  model.setFieldValue('usnat', 'SaleOptOut', 1);
  model.setFieldValue('usnat', 'SharingNotice', 1);
  return model.encode();
}

const gpp = (command: string, parameter?: string) =>
  new Promise<{ data: unknown; success: boolean }>((resolve) =>
    (self as never as { __gpp: (...args: unknown[]) => void }).__gpp(
      command,
      (data: unknown, success: boolean) => resolve({ data, success }),
      parameter,
    ),
  );

it('serves the usnat section of the GPP string and its applicable sections', async () => {
  const gppString = usnatString();
  const signal: ConsentSignal = {
    state: 'accepted',
    consentString: gppString,
    consentMetadata: { consentStringType: 4, gppSectionId: '7' },
    purposeConsents: {},
    sharedData: undefined,
    isConsentRequired: true,
    isKnown: true,
    isPromptShown: false,
    hasTimedOut: false,
    tcfPolicyVersion: undefined,
    isStringPending: false,
    decisionKey: 'accepted',
  };
  const report = vi.fn();
  const source: SignalSource = {
    cmpId: 10,
    cmpVersion: 3,
    report,
    current: () => signal,
    subscribe: () => {},
    tcf: undefined,
    gpp: undefined,
    hasStringSource: true,
    addString: () => {},
    hasGpp: true,
    hasTcf: false,
    enableAdvertiserConsentMode: false,
  };
  startGppApi(source);
  expect(await gpp('ping')).toMatchObject({
    data: { gppString, applicableSections: [7], signalStatus: 'ready', cmpId: 10, gppVersion: '1.1' },
  });
  expect(await gpp('hasSection', 'usnat')).toEqual({ data: true, success: true });
  expect(await gpp('getField', 'usnat.SaleOptOut')).toEqual({ data: 1, success: true });
  expect(await gpp('getSection', 'usnat')).toMatchObject({ data: { SaleOptOut: 1, SharingNotice: 1 } });
  expect(report).not.toHaveBeenCalled();
});
