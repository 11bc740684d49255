/**
 * The contract between the first layer (`cmp/prompt-0.1.js`, painted at once) and the second
 * layer (`cmp/details-0.1.js`, loaded after the first paint): the second layer's script puts
 * its module on `self.pageCmpDetails`; the first layer starts a session with it. The same for
 * the GPP script the second layer loads when the page exposes GPP. Types only.
 */
import type { ClientInfo } from '../wire/client-info.ts';
import type { PageConfig } from './page-config.ts';

export type ChoiceKind = 'accept' | 'reject' | 'save';

/** The fields of the `consent-response` message besides `type`. */
export type PromptDecision = {
  readonly action: 'accept' | 'reject';
  readonly purposeConsents?: Readonly<Record<string, boolean>>;
  readonly info?: string;
  /** `consentStringType` 2 (`info` is the TC string), or 4 with `gppSectionId` "2" (`info` is a GPP string holding it). */
  readonly consentMetadata?: {
    readonly consentStringType: 2 | 4;
    readonly gdprApplies: boolean;
    readonly gppSectionId?: string;
    /** Google's Additional Consent string, when the instance lists ATPs. */
    readonly additionalConsent?: string;
  };
  readonly tcfPolicyVersion?: number;
};

export type DetailsSession = {
  /** Renders the second layer (purposes, special features, vendors) into `container`. */
  render(container: HTMLElement): void;
  decide(kind: ChoiceKind): PromptDecision;
};

/** `nonce`: the page's script nonce, for the scripts the second layer loads in turn. */
export type DetailsModule = { start(config: PageConfig, info: ClientInfo, nonce: string): Promise<DetailsSession> };

/** `cmp/gpp-0.1.js`, loaded when the page exposes GPP: TC string to GPP string (`tcfeuv2`) and back. */
export type GppModule = { gppStringOf(tcString: string): string; tcStringOf(gppString: string): string | null };

declare global {
  var pageCmpDetails: DetailsModule | undefined;
  var pageCmpGpp: GppModule | undefined;
}
