/**
 * The client info `<page-consent>` puts in the frame's `window.name` (docs/consent.md,
 * promptUiSrc), read with the shared typed readers: anything malformed is left out with a
 * `consent-prompt-client-info` diagnostic, so a bad name gives a prompt with nothing stored,
 * never a broken one.
 */
import type { Parsed } from './diagnostic.ts';
import {
  collector,
  parseJsonText,
  readBoolean,
  readFields,
  readList,
  readMap,
  readNumber,
  readOneOf,
  readText,
} from './values.ts';

export type ClientInfo = {
  readonly clientConfig?: {
    readonly lang?: string;
    readonly consentInstanceId?: string;
    readonly purposeConsentRequired?: readonly string[];
    readonly exposesTcfApi?: boolean;
    readonly exposesGppApi?: boolean;
  };
  readonly consentString?: string;
  readonly purposeConsents?: Readonly<Record<string, boolean>>;
  /** `gpc`: the decision in force is a Global Privacy Control rejection (docs/consent.md, "Global Privacy Control"). */
  readonly consentMetadata?: {
    readonly gdprApplies?: boolean;
    readonly consentStringType?: number;
    readonly gpc?: boolean;
    /** The stored AC string, read by the prompt with the AC reader (src/wire/additional-consent.ts). */
    readonly additionalConsent?: string;
  };
  readonly promptTrigger?: 'load' | 'action';
};

const readInfo = readFields<ClientInfo>({
  clientConfig: readFields({
    lang: readText(35, 2),
    consentInstanceId: readText(100, 1),
    purposeConsentRequired: readList(readText(100, 1), 50),
    exposesTcfApi: readBoolean,
    exposesGppApi: readBoolean,
  }),
  consentString: readText(100_000, 1),
  purposeConsents: readMap(readBoolean),
  consentMetadata: readFields({
    gdprApplies: readBoolean,
    consentStringType: readNumber(0, 99),
    gpc: readBoolean,
    additionalConsent: readText(100_000),
  }),
  promptTrigger: readOneOf(['load', 'action'] as const),
});

/** The client info of a frame's `window.name` (empty: none), with a diagnostic per field left out. */
export function parseClientInfo(windowName: string): Parsed<ClientInfo> {
  const into = collector('consent-prompt-client-info');
  const json = parseJsonText(windowName || '{}');
  const value = readInfo(into, json === undefined ? windowName : json, 'clientInfo') ?? {};
  return { value, diagnostics: into.diagnostics };
}
