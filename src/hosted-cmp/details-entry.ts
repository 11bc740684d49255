/**
 * Entry of `cmp/details-0.1.js`, the hosted prompt's second layer, loaded after the first layer
 * is painted: it fetches the GVL (and the IAB translation of the reader's language), renders
 * the purposes, special features and vendors, and builds the TC string of a choice with the
 * shared TCF module (on `@iabtechlabtcf/core`). Re-opened with a stored string, it starts
 * from the choices decoded from it.
 */
import { choicesOfTcString, encodeTcString } from '../tcf/tc-string.ts';
import { choicesOfDecision } from '../tcf/tc-choices.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { parseGvl } from '../wire/gvl.ts';
import { own } from '../wire/values.ts';
import type { ClientInfo } from './client-info.ts';
import type { ChoiceKind, DetailsModule, DetailsSession, GppModule, PromptDecision } from './details-api.ts';
import { parseTranslation, translateGvl } from './gvl-translation.ts';
import { loadScript } from './load-script.ts';
import { reportAll } from './report.ts';
import { ownModel, ownPurposes } from './own-view.ts';
import type { PageConfig, PageTcf } from './page-config.ts';
import { buildSecondLayer, type SecondLayerModel } from './second-layer.ts';
import type { Switches } from './switches.ts';
import { isAnyConsent, purposeConsentsOf, scopeOf } from './tcf-scope.ts';
import { choicesOfState, initialState } from './tcf-switches.ts';
import { tcfModel } from './tcf-view.ts';

const FETCH_TIMEOUT_MS = 8000;
/** `consentMetadata.consentStringType` of a TC string and of a GPP string (docs/consent.md, CMP iframe). */
const TC_STRING_TYPE = 2 as const;
const GPP_STRING_TYPE = 4 as const;

const TRANSLATION = 'consent-prompt-translation-invalid';
const VENDOR_LIST = 'consent-prompt-vendor-list-invalid';

/** Reports a file that could not be read; null (the prompt goes on without it). */
function failed(code: string, expected: string, error: unknown): null {
  reportAll([diagnostic(code, expected, String(error))]);
  return null;
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/**
 * The layer's render: its elements are built in a task of their own once the session starts
 * (after the first layer's paint), so Customize only attaches them; built at once if asked first.
 */
function renderer(model: SecondLayerModel, state: Switches, messages: PageConfig['messages']): (container: HTMLElement) => void {
  let parts: HTMLElement[] | null = null;
  const build = () => (parts ??= buildSecondLayer(model, state, messages));
  setTimeout(build, 0);
  return (container) => container.replaceChildren(...build());
}

function ownSession(config: PageConfig, info: ClientInfo): DetailsSession {
  const purposes = ownPurposes(config, info);
  const state: Switches = new Map(purposes.map((p) => [`c:${p.id}`, own(info.purposeConsents ?? {}, p.id) === true]));
  return {
    render: renderer(ownModel(config, purposes), state, config.messages),
    decide(kind) {
      const purposeConsents = Object.fromEntries(purposes.map((p) => [p.id, kind === 'save' ? state.get(`c:${p.id}`) === true : kind === 'accept']));
      const action = kind === 'save' ? (Object.values(purposeConsents).some(Boolean) ? 'accept' : 'reject') : kind;
      return { action, ...(purposes.length ? { purposeConsents } : {}) };
    },
  };
}

/**
 * The GPP script when the page exposes GPP without TCF; null otherwise or when it does not load
 * (the answer then carries the TC string, which a page with both APIs puts into GPP itself).
 */
const gppModuleOf = (config: PageConfig, info: ClientInfo, nonce: string): Promise<GppModule | null> =>
  info.clientConfig?.exposesGppApi && !info.clientConfig.exposesTcfApi ? loadScript(config.gppScript, nonce).then(() => self.pageCmpGpp ?? null, () => null) : Promise.resolve(null);

/** The stored TC string: the client info's string, or the `tcfeuv2` section of its GPP string (type 4). */
function storedTcString(info: ClientInfo, gpp: GppModule | null): string | null {
  const stored = info.consentString;
  if (!stored) return null;
  return info.consentMetadata?.consentStringType === GPP_STRING_TYPE ? (gpp?.tcStringOf(stored) ?? null) : stored;
}

async function tcfSession(config: PageConfig, tcf: PageTcf, info: ClientInfo, nonce: string): Promise<DetailsSession> {
  const [gvlJson, translationJson, gpp] = await Promise.all([
    fetchJson(tcf.vendorListUrl).catch((error: unknown) => {
      failed(VENDOR_LIST, 'the vendor list as JSON', error);
      throw error;
    }),
    tcf.translationsUrl ? fetchJson(tcf.translationsUrl).catch((error: unknown) => failed(TRANSLATION, 'the IAB translation file as JSON', error)) : null,
    gppModuleOf(config, info, nonce),
  ]);
  const parsedGvl = parseGvl(gvlJson, VENDOR_LIST);
  reportAll(parsedGvl.diagnostics);
  const gvl = parsedGvl.value;
  if (!gvl) throw new Error('vendor-list: expected a GVL v3 document');
  const parsedTranslation = translationJson === null ? null : parseTranslation(translationJson);
  reportAll(parsedTranslation?.diagnostics ?? []);
  const translation = parsedTranslation?.value ?? null;
  const scope = scopeOf(gvl, tcf.settings);
  const stored = storedTcString(info, gpp);
  const state = initialState(scope, stored ? choicesOfTcString(stored) : null);
  const gdprApplies = info.consentMetadata?.gdprApplies ?? true;
  const decide = (kind: ChoiceKind): PromptDecision => {
    const choices = kind === 'save' ? choicesOfState(state) : choicesOfDecision(gvl, tcf.settings, { state: kind === 'accept' ? 'accepted' : 'rejected' });
    const mapping = Object.keys(tcf.purposeMapping).length ? { purposeConsents: purposeConsentsOf(choices, tcf.purposeMapping) } : {};
    const tcString = encodeTcString(gvl, tcf.settings, choices);
    // With GPP the one string of the answer is the GPP string; the page's TCF API reads its tcfeuv2 section.
    const carried = gpp
      ? { info: gpp.gppStringOf(tcString), consentMetadata: { consentStringType: GPP_STRING_TYPE, gdprApplies, ...(gdprApplies ? { gppSectionId: '2' } : {}) } }
      : { info: tcString, consentMetadata: { consentStringType: TC_STRING_TYPE, gdprApplies } };
    return {
      action: kind === 'save' ? (isAnyConsent(choices) ? 'accept' : 'reject') : kind,
      ...carried,
      ...mapping,
      tcfPolicyVersion: gvl.tcfPolicyVersion,
    };
  };
  const model = tcfModel(translateGvl(gvl, translation), scope, config.messages, config.lang);
  return { render: renderer(model, state, config.messages), decide };
}

const details: DetailsModule = {
  start: async (config, info, nonce) => (config.tcf ? tcfSession(config, config.tcf, info, nonce) : ownSession(config, info)),
};
self.pageCmpDetails = details;
