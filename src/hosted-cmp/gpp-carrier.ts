/**
 * Which string the answer carries (docs/consent.md, CMP iframe): the TC string (type 2), or,
 * when the page exposes GPP without TCF, a GPP string whose `tcfeuv2` section is the TC string
 * (type 4), built by `cmp/gpp-0.1.js`. If that script does not load, a warning says so
 * (`consent-prompt-gpp-load-failed`) and the answer carries the TC string.
 */
import { checkTcString } from '../wire/consent-string-bounds.ts';
import type { ClientInfo } from '../wire/client-info.ts';
import type { GppModule, PromptDecision } from './details-api.ts';
import { reportFailed } from './details-files.ts';
import { loadScript } from './load-script.ts';
import type { PageConfig } from './page-config.ts';
import { reportAll } from './report.ts';

/** `consentMetadata.consentStringType` of a TC string and of a GPP string. */
const TC_STRING_TYPE = 2 as const;
const GPP_STRING_TYPE = 4 as const;
const GPP_LOAD_FAILED = 'consent-prompt-gpp-load-failed';

/** The GPP script when the page exposes GPP without TCF; null otherwise or when it does not load (reported). */
export function gppModuleOf(config: PageConfig, info: ClientInfo, nonce: string): Promise<GppModule | null> {
  if (!info.clientConfig?.exposesGppApi || info.clientConfig.exposesTcfApi) return Promise.resolve(null);
  return loadScript(config.gppScript, nonce)
    .then(() => self.pageCmpGpp ?? Promise.reject(new Error(`${config.gppScript}: no GPP model`)))
    .catch((error: unknown) => reportFailed(GPP_LOAD_FAILED, 'the GPP script', error));
}

/**
 * The stored TC string: the client info's string, or the `tcfeuv2` section of its GPP string
 * (type 4, checked by the GPP script). A TC string the bounds check refuses (docs/consent.md,
 * "Bounded consent strings") is reported and read as none, before any IAB decoder sees it.
 */
export function storedTcString(info: ClientInfo, gpp: GppModule | null): string | null {
  const stored = info.consentString;
  if (!stored) return null;
  if (info.consentMetadata?.consentStringType === GPP_STRING_TYPE) return gpp?.tcStringOf(stored) ?? null;
  const refusal = checkTcString(stored);
  if (refusal) reportAll([refusal]);
  return refusal ? null : stored;
}

/** The answer's string and metadata for `tcString`: with GPP, the one string is the GPP string. */
export function carriedString(
  tcString: string,
  gpp: GppModule | null,
  gdprApplies: boolean,
): Pick<PromptDecision, 'info' | 'consentMetadata'> {
  return gpp
    ? {
        info: gpp.gppStringOf(tcString),
        consentMetadata: {
          consentStringType: GPP_STRING_TYPE,
          gdprApplies,
          ...(gdprApplies ? { gppSectionId: '2' } : {}),
        },
      }
    : { info: tcString, consentMetadata: { consentStringType: TC_STRING_TYPE, gdprApplies } };
}
