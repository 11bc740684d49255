/**
 * What the server embeds in `/cmp/prompt.html` for the frame (types only): the reader's
 * language and its message catalogue, the instance's texts, its own purposes and vendors (an
 * instance without `tcf`) or its TCF settings with the first layer's summary, and the scope of
 * the choices (this site, or a group of sites).
 */
import type { TcfSettings } from '../tcf/tc-choices.ts';
import type { FirstLayerSummary } from './first-layer-summary.ts';
import type { SiteGroup } from '../wire/instance-config.ts';
import type { CmpLanguage, Messages } from '../messages/language.ts';

export type { Messages };

export type PagePurpose = { readonly id: string; readonly label: string; readonly description?: string };
export type PageVendor = { readonly name: string; readonly url?: string; readonly purposes?: readonly string[] };

/** One of Google's ATPs the instance lists under "Other partners" (docs/decisions/additional-consent.md). */
export type PageAtp = { readonly id: number; readonly name: string; readonly policyUrl: string };

export type PageTcf = {
  readonly settings: TcfSettings;
  /** Config purpose -> TCF purpose ids, for the response's `purposeConsents`. */
  readonly purposeMapping: Readonly<Record<string, readonly number[]>>;
  readonly vendorListUrl: string;
  /** The IAB translation file of the language, when the server has it. */
  readonly translationsUrl: string | null;
  /** The first layer's purposes (or stacks) and, under their own heading, special features. */
  readonly summary: FirstLayerSummary;
  readonly vendorCount: number;
  /** Whether a listed vendor claims legitimate interest (the first layer then says how to object). */
  readonly hasLegitimateInterest: boolean;
  /** Google's ATPs of `tcf.googleAtps` found in the server's ATP list, ascending by id; [] without. */
  readonly atps: readonly PageAtp[];
};

export type PageConfig = {
  /** The prompt's language: the reader's, or English when the IAB texts for it are incomplete. */
  readonly lang: CmpLanguage;
  /** The reader's language the server was asked for (`?lang=`, else Accept-Language). */
  readonly readerLang: CmpLanguage;
  readonly messages: Messages;
  readonly title: string;
  readonly message: string;
  readonly privacyPolicyUrl?: string;
  readonly outcomeUrl: string | null;
  /** The second layer's script (loaded after the first layer is painted). */
  readonly detailsScript: string;
  /** The GPP script, loaded by the second layer when the page exposes GPP. */
  readonly gppScript: string;
  readonly purposes: readonly PagePurpose[];
  readonly vendors: readonly PageVendor[];
  readonly tcf: PageTcf | null;
  /** The group of sites the choices apply to; null: this site. */
  readonly siteGroup: SiteGroup | null;
};

/** `{n}` in a catalogue text replaced by `n`. */
export const formatMessage = (text: string | undefined, n: number | string): string =>
  (text ?? '').replace('{n}', String(n));
