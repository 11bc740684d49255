/**
 * The client info `<page-consent>` puts in the frame's `window.name` (docs/consent.md,
 * promptUiSrc), read with the shared typed readers: anything malformed is left out, so a bad
 * name gives a prompt with nothing stored, never a broken one.
 */
import { collector, parseJsonText, readBoolean, readFields, readList, readMap, readNumber, readOneOf, readText } from '../wire/values.ts';

export type ClientInfo = {
  readonly clientConfig?: {
    readonly lang?: string;
    readonly consentInstanceId?: string;
    readonly purposeConsentRequired?: readonly string[];
    readonly exposesGppApi?: boolean;
  };
  readonly consentString?: string;
  readonly purposeConsents?: Readonly<Record<string, boolean>>;
  readonly consentMetadata?: { readonly gdprApplies?: boolean; readonly consentStringType?: number };
  readonly promptTrigger?: 'load' | 'action';
};

const readInfo = readFields<ClientInfo>({
  clientConfig: readFields({
    lang: readText(35, 2),
    consentInstanceId: readText(100, 1),
    purposeConsentRequired: readList(readText(100, 1), 50),
    exposesGppApi: readBoolean,
  }),
  consentString: readText(100_000, 1),
  purposeConsents: readMap(readBoolean),
  consentMetadata: readFields({ gdprApplies: readBoolean, consentStringType: readNumber(0, 99) }),
  promptTrigger: readOneOf(['load', 'action'] as const),
});

export const readClientInfo = (windowName: string): ClientInfo => readInfo(collector('consent-prompt-client-info'), parseJsonText(windowName || '{}'), '') ?? {};
