/**
 * The contract between the first layer (`cmp/prompt-0.1.js`, painted at once) and the second
 * layer (`cmp/details-0.1.js`, loaded after the first paint): the second layer's script puts
 * its module on `self.pageCmpDetails`; the first layer starts a session with it. Types only.
 */
import type { ClientInfo } from './client-info.ts';
import type { PageConfig } from './page-config.ts';

export type ChoiceKind = 'accept' | 'reject' | 'save';

/** The fields of the `consent-response` message besides `type`. */
export type PromptDecision = {
  readonly action: 'accept' | 'reject';
  readonly purposeConsents?: Readonly<Record<string, boolean>>;
  readonly info?: string;
  readonly consentMetadata?: { readonly consentStringType: 2; readonly gdprApplies: boolean };
  readonly tcfPolicyVersion?: number;
};

export type DetailsSession = {
  /** Renders the second layer (purposes, special features, vendors) into `container`. */
  render(container: HTMLElement): void;
  decide(kind: ChoiceKind): PromptDecision;
};

export type DetailsModule = { start(config: PageConfig, info: ClientInfo): Promise<DetailsSession> };

declare global {
  var pageCmpDetails: DetailsModule | undefined;
}
