/**
 * The three IAB page APIs as our stubs and bridges see them (docs/consent.md, "Signals for ad
 * tech"): each one's name, where its callback sits, how a frame's `<name>Call` maps to
 * arguments, and the `ping` a stub answers before the full API loaded (the TCF CMP API v2.2 and
 * GPP v1.1 "stub" states; US privacy has none). Shared by the head stub, the consent extension
 * and the parts, so all answer alike. Pure data.
 */
type Reply = (value: unknown, success: boolean) => void;

export type SignalApi = {
  readonly name: '__tcfapi' | '__gpp' | '__uspapi';
  readonly callbackIndex: number;
  readonly argumentsOf: (call: Record<string, unknown>, reply: Reply) => unknown[];
  readonly stubPing?: () => Record<string, unknown>;
};

/** The TCF CMP API version, the same in the stubs' and the full API's ping. */
export const TCF_API_VERSION = '2.2';

export const TCF_API: SignalApi = {
  name: '__tcfapi',
  callbackIndex: 2,
  argumentsOf: (call, reply) => [call.command, call.version, reply, call.parameter],
  stubPing: () => ({ cmpLoaded: false, cmpStatus: 'stub', displayStatus: 'hidden', apiVersion: TCF_API_VERSION }),
};

export const GPP_API: SignalApi = {
  name: '__gpp',
  callbackIndex: 1,
  argumentsOf: (call, reply) => [call.command, reply, call.parameter, call.version],
  stubPing: () => ({
    gppVersion: '1.1',
    cmpStatus: 'stub',
    cmpDisplayStatus: 'hidden',
    signalStatus: 'not ready',
    supportedAPIs: [],
    cmpId: 0,
    sectionList: [],
    applicableSections: [-1],
    gppString: '',
    parsedSections: {},
  }),
};

export const USP_API: SignalApi = {
  name: '__uspapi',
  callbackIndex: 2,
  argumentsOf: (call, reply) => [call.command, call.version, reply],
};

/** Where the stubs' bridge leaves its off switch, for the full bridge of the parts to take over. */
export type StubScope = { __pageConsentStub?: { off(): void }; __pageConsentBridge?: boolean };
