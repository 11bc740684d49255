/**
 * The three IAB page APIs as our stubs and bridges see them (docs/consent.md, "Signals for ad
 * tech"): each one's name, where its callback sits, the commands its spec defines (any other
 * is answered `success: false` and reaches no library), how a frame's `<name>Call` maps to
 * arguments, and the `ping` a stub answers before the full API loaded. Shared by the head stub
 * and the consent extension, so both answer alike. Pure data.
 */
type Reply = (value: unknown, success: boolean) => void;

export type SignalApi = {
  readonly name: '__tcfapi' | '__gpp' | '__uspapi';
  readonly callbackIndex: number;
  readonly commands: readonly string[];
  readonly argumentsOf: (call: Record<string, unknown>, reply: Reply) => unknown[];
  /** A stub's ping answer (the TCF CMP API v2.2 and GPP v1.1 "stub" states); none for US privacy. */
  readonly stubPing?: () => Record<string, unknown>;
};

/** The TCF CMP API version, the same in the stub's and the full API's ping. */
export const TCF_API_VERSION = '2.2';

export const TCF_API: SignalApi = {
  name: '__tcfapi',
  callbackIndex: 2,
  commands: ['ping', 'getTCData', 'addEventListener', 'removeEventListener'],
  argumentsOf: (call, reply) => [call.command, call.version, reply, call.parameter],
  stubPing: () => ({ gdprApplies: undefined, cmpLoaded: false, cmpStatus: 'stub', displayStatus: 'hidden', apiVersion: TCF_API_VERSION }),
};

export const GPP_API: SignalApi = {
  name: '__gpp',
  callbackIndex: 1,
  commands: ['ping', 'addEventListener', 'removeEventListener', 'hasSection', 'getSection', 'getField'],
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
  commands: ['getUSPData'],
  argumentsOf: (call, reply) => [call.command, call.version, reply],
};

/** Whether `command` is one the API defines (a string compare: `constructor` is not one). */
export const isApiCommand = (api: SignalApi, command: unknown): boolean => typeof command === 'string' && api.commands.includes(command);
