/**
 * The second layer of an instance with `tcf` settings: it reads the GVL and the IAB
 * translation (and the GPP script when the page needs it), starts the switches from the stored
 * string's choices, and answers a choice with the TC string built by the shared TCF module
 * (on `@iabtechlabtcf/core`), carried as the page expects (gpp-carrier.ts). With Google's ATPs
 * (`tcf.atps`) the answer's metadata carries the Additional Consent string: Accept all consents
 * to every ATP, Reject all to none, Save to those switched on; all of them are disclosed.
 */
import { choicesOfDecision } from '../tcf/tc-choices.ts';
import { choicesOfTcString, encodeTcString } from '../tcf/tc-string.ts';
import { parseGvl } from '../wire/gvl.ts';
import type { ClientInfo } from '../wire/client-info.ts';
import type { ChoiceKind, DetailsSession, PromptDecision } from './details-api.ts';
import { fetchJson, reportFailed, TRANSLATION_MAX_BYTES, VENDOR_LIST_MAX_BYTES } from './details-files.ts';
import { carriedString, gppModuleOf, storedTcString } from './gpp-carrier.ts';
import { parseTranslation } from '../wire/gvl-translation.ts';
import { translateGvl } from './translate-gvl.ts';
import { renderer } from './layer-renderer.ts';
import type { PageConfig, PageTcf } from './page-config.ts';
import { reportAll } from './report.ts';
import { isAnyConsent, purposeConsentsOf, scopeOf } from './tcf-scope.ts';
import { choicesOfState, initialState } from './tcf-switches.ts';
import { tcfModel } from './tcf-view.ts';
import { formatAdditionalConsent, parseAdditionalConsent } from '../wire/additional-consent.ts';
import { idsOn } from './switches.ts';

const TRANSLATION = 'consent-prompt-translation-invalid';
const VENDOR_LIST = 'consent-prompt-vendor-list-invalid';

export async function tcfSession(
  config: PageConfig,
  tcf: PageTcf,
  info: ClientInfo,
  nonce: string,
): Promise<DetailsSession> {
  const [gvlJson, translationJson, gpp] = await Promise.all([
    fetchJson(tcf.vendorListUrl, VENDOR_LIST_MAX_BYTES).catch((error: unknown) => {
      reportFailed(VENDOR_LIST, 'the vendor list as JSON', error);
      throw error;
    }),
    tcf.translationsUrl
      ? fetchJson(tcf.translationsUrl, TRANSLATION_MAX_BYTES).catch((error: unknown) =>
          reportFailed(TRANSLATION, 'the IAB translation file as JSON', error),
        )
      : null,
    gppModuleOf(config, info, nonce),
  ]);
  const parsedGvl = parseGvl(gvlJson, VENDOR_LIST);
  reportAll(parsedGvl.diagnostics);
  const gvl = parsedGvl.value;
  if (!gvl) throw new Error('vendor-list: expected a GVL v3 document');
  const parsedTranslation = translationJson === null ? null : parseTranslation(translationJson);
  reportAll(parsedTranslation?.diagnostics ?? []);
  const scope = scopeOf(gvl, tcf.settings);
  const stored = storedTcString(info, gpp);
  const { publisherPurposes } = tcf.settings;
  const state = initialState(scope, stored ? choicesOfTcString(stored) : null, publisherPurposes);
  // The ATP switches start from the stored AC string (a malformed one is reported and read as none).
  const storedAc = info.consentMetadata?.additionalConsent;
  const parsedAc = storedAc === undefined ? null : parseAdditionalConsent(storedAc);
  reportAll(parsedAc?.diagnostics ?? []);
  for (const atp of tcf.atps) state.set(`a:${atp.id}`, parsedAc?.value?.consented.includes(atp.id) ?? false);
  const gdprApplies = info.consentMetadata?.gdprApplies ?? true;
  const decide = (kind: ChoiceKind): PromptDecision => {
    const choices =
      kind === 'save'
        ? choicesOfState(state, publisherPurposes)
        : choicesOfDecision(gvl, tcf.settings, { state: kind === 'accept' ? 'accepted' : 'rejected' });
    const atpConsents = kind === 'save' ? idsOn(state, 'a') : [];
    const isAtpConsented = (id: number) => kind === 'accept' || atpConsents.includes(id);
    const additionalConsent = tcf.atps.length
      ? formatAdditionalConsent(
          tcf.atps.map((atp) => atp.id),
          isAtpConsented,
        )
      : undefined;
    const carried = carriedString(encodeTcString(gvl, tcf.settings, choices), gpp, gdprApplies);
    return {
      action: kind === 'save' ? (isAnyConsent(choices) || atpConsents.length ? 'accept' : 'reject') : kind,
      ...carried,
      ...(additionalConsent ? { consentMetadata: { ...carried.consentMetadata!, additionalConsent } } : {}),
      ...(Object.keys(tcf.purposeMapping).length
        ? { purposeConsents: purposeConsentsOf(choices, tcf.purposeMapping) }
        : {}),
      tcfPolicyVersion: gvl.tcfPolicyVersion,
    };
  };
  const model = tcfModel(
    translateGvl(gvl, parsedTranslation?.value ?? null),
    scope,
    config.messages,
    config.lang,
    tcf.atps,
    publisherPurposes?.custom,
  );
  return { render: renderer(model, state, config.messages), decide };
}
