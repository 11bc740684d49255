/**
 * The config `/cmp/prompt.html` embeds for the frame: the prompt's language and catalogue, the
 * instance's texts (or the catalogue's), and either its own purposes and vendors or, for an
 * instance with `tcf` settings and a GVL on the server, the TCF settings with the first layer's
 * summary (stacks or purposes, special features, vendor count). A TCF prompt speaks the reader's
 * language only when the IAB translation covers the GVL, else English throughout
 * (prompt-languages.ts).
 */
import { summarize } from '../src/hosted-cmp/first-layer-summary.ts';
import { translateGvl } from '../src/hosted-cmp/translate-gvl.ts';
import { type CmpLanguage, iabLanguageOf } from '../src/messages/language.ts';
import type { PageConfig, PageTcf } from '../src/hosted-cmp/page-config.ts';
import { scopeOf } from '../src/hosted-cmp/tcf-scope.ts';
import { catalogues } from '../src/messages/catalogues.ts';
import type { InstanceTcf } from '../src/wire/instance-config.ts';
import type { GoogleAtp } from '../src/wire/google-atps.ts';
import type { GvlTranslation } from '../src/wire/gvl-translation.ts';
import type { GvlJson } from '../src/wire/gvl.ts';
import { tcfPromptLanguage } from './prompt-languages.ts';
import type { InstanceConfig } from './store/store.ts';
import type { TcfFiles } from './tcf-files.ts';

/** The second layer's script; the first layer's is named by the page template. */
const detailsScript = '/cmp/details-0.1.js';
const gppScript = '/cmp/gpp-0.1.js';

type TcfSources = {
  readonly gvl: GvlJson;
  readonly translation: GvlTranslation | null;
  readonly atps: readonly GoogleAtp[] | null;
};

function pageTcf(tcf: InstanceTcf, language: CmpLanguage, { gvl, translation, atps }: TcfSources): PageTcf {
  const code = iabLanguageOf(language);
  // The prompt's language as the string's consentLanguage, in the IAB's codes (nb is NO, pt PT-PT).
  const { googleAtps, siteGroup, ...rest } = tcf;
  const settings = { ...rest, consentLanguage: (code ?? language).toUpperCase() };
  const scope = scopeOf(gvl, settings);
  return {
    settings,
    purposeMapping: tcf.purposes ?? {},
    vendorListUrl: '/tcf/vendor-list.json',
    translationsUrl: translation && code ? `/tcf/purposes-${code}.json` : null,
    summary: summarize(translateGvl(gvl, translation), scope),
    vendorCount: scope.vendors.length,
    hasLegitimateInterest: scope.legIntPurposes.length > 0,
    atps: googleAtps ? atpsOf(googleAtps, atps) : [],
  };
}

/** The ATPs of `googleAtps` the list names (an id it lacks cannot be shown, so it is neither disclosed nor consented). */
function atpsOf(googleAtps: NonNullable<InstanceTcf['googleAtps']>, list: readonly GoogleAtp[] | null) {
  const wanted = googleAtps === 'all' ? null : new Set(googleAtps);
  return (list ?? [])
    .filter((atp) => !wanted || wanted.has(atp.id))
    .sort((a, b) => a.id - b.id)
    .map(({ id, name, policyUrl }) => ({ id, name, policyUrl }));
}

type Options = {
  /** The reader's language (the page's `lang`, else Accept-Language). */
  readonly language: CmpLanguage;
  readonly config: InstanceConfig | null;
  readonly outcomeUrl: string | null;
  readonly files: TcfFiles;
};

export async function promptPageConfig({ language: asked, config, outcomeUrl, files }: Options): Promise<PageConfig> {
  const gvl = config?.tcf ? await files.vendorList() : null;
  const { language, translation } = gvl
    ? await tcfPromptLanguage(asked, gvl, files)
    : { language: asked, translation: null };
  const messages = catalogues[language];
  const prompt = config?.prompt ?? null;
  const tcf =
    config?.tcf && gvl
      ? pageTcf(config.tcf, language, { gvl, translation, atps: config.tcf.googleAtps ? await files.atpList() : null })
      : null;
  return {
    lang: language,
    readerLang: asked,
    messages,
    title: prompt?.title ?? messages['title'] ?? '',
    message: prompt?.message ?? messages['intro'] ?? '',
    ...(prompt?.privacyPolicyUrl ? { privacyPolicyUrl: prompt.privacyPolicyUrl } : {}),
    outcomeUrl,
    detailsScript,
    gppScript,
    purposes: prompt?.purposes.length
      ? prompt.purposes
      : (config?.purposeConsentRequired ?? []).map((id) => ({ id, label: id })),
    vendors: prompt?.vendors ?? [],
    tcf,
    siteGroup: config?.tcf?.siteGroup ?? null,
  };
}
