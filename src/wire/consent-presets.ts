/**
 * CMP presets for `<page-consent type="...">` (docs/consent.md, "Config"): each builds the config that is merged
 * under the inline one (inline wins). `page-hosted` is the reference server's hosted prompt: it
 * learns the server from the origin of the inline `checkConsentHref` (else the page's own
 * origin), see docs/decisions/consent-cmp-presets.md. It also passes the instance and its
 * required purposes to the prompt in `clientConfig`.
 */
import { isPlainText, isRecord, type Json, own } from './values.ts';

/** Builds a preset's config from the inline config and the document URL. */
export type Preset = (inline: Json, baseUrl: string) => Json;

/** The origin of the consent server: that of `checkConsentHref`, else the page's. */
function serverOrigin(inline: Json, baseUrl: string): string {
  const href = own(inline, 'checkConsentHref');
  try {
    return new URL(typeof href === 'string' ? href : '/', baseUrl).origin;
  } catch {
    return new URL(baseUrl).origin;
  }
}

const hosted: Preset = (inline, baseUrl) => {
  const origin = serverOrigin(inline, baseUrl);
  const id = own(inline, 'consentInstanceId');
  return {
    checkConsentHref: `${origin}/consent/check`,
    onUpdateHref: `${origin}/consent/update`,
    // encodeURIComponent throws on a lone surrogate: such an id (which the server refuses) is not passed.
    promptUiSrc: `${origin}/cmp/prompt.html${typeof id === 'string' && isPlainText(id) ? `?instance=${encodeURIComponent(id)}` : ''}`,
    // What the hosted prompt reads from the client info: the instance, the purposes to ask for,
    // and which IAB APIs the page exposes (with GPP alone, it answers a GPP string holding its TC string).
    clientConfig: {
      consentInstanceId: id,
      purposeConsentRequired: own(inline, 'purposeConsentRequired'),
      exposesTcfApi: own(inline, 'exposesTcfApi'),
      exposesGppApi: own(inline, 'exposesGppApi'),
    },
  };
};

export const CMP_PRESETS: Readonly<Record<string, Preset>> = { 'page-hosted': hosted };

/** The preset config of `type` merged under nothing yet; undefined for an unknown type. */
export const presetOf = (
  presets: Readonly<Record<string, Preset>>,
  type: string,
  inline: Json,
  baseUrl: string,
): Json | undefined => {
  const preset = Object.hasOwn(presets, type) ? presets[type] : undefined;
  const value = preset?.(inline, baseUrl);
  return isRecord(value) ? value : undefined;
};
