/**
 * The config `/cmp/prompt.html` embeds for the frame: the reader's language and catalogue, the
 * instance's texts (or the catalogue's), and either its own purposes and vendors or, for an
 * instance with `tcf` settings and a GVL on the server, the TCF settings with the first layer's
 * summary (stacks or purposes, special features, vendor count) in the reader's language where
 * the IAB translation has it.
 */
import { summarize } from '../src/hosted-cmp/first-layer-summary.ts';
import { translateGvl } from '../src/hosted-cmp/translate-gvl.ts';
import { type CmpLanguage, iabLanguageOf } from '../src/messages/language.ts';
import type { PageConfig, PageTcf } from '../src/hosted-cmp/page-config.ts';
import { scopeOf } from '../src/hosted-cmp/tcf-scope.ts';
import { catalogues } from '../src/messages/catalogues.ts';
import type { InstanceTcf } from '../src/wire/instance-config.ts';
import type { GoogleAtp } from '../src/wire/google-atps.ts';
import type { InstanceConfig } from './store/store.ts';
import type { TcfFiles } from './tcf-files.ts';

/** The second layer's script; the first layer's is named by the page template. */
const detailsScript = '/cmp/details-0.1.js';
const gppScript = '/cmp/gpp-0.1.js';

async function pageTcf(tcf: InstanceTcf, language: CmpLanguage, files: TcfFiles): Promise<PageTcf | null> {
  const gvl = await files.vendorList();
  if (!gvl) return null;
  const code = iabLanguageOf(language);
  const translation = code ? await files.translation(code) : null;
  // The prompt's language as the string's consentLanguage, in the IAB's codes (nb is NO, pt PT-PT).
  const { googleAtps, ...rest } = tcf;
  const settings = { ...rest, consentLanguage: (code ?? language).toUpperCase() };
  const scope = scopeOf(gvl, settings);
  return {
    settings,
    purposeMapping: tcf.purposes ?? {},
    vendorListUrl: '/tcf/vendor-list.json',
    translationsUrl: translation && code ? `/tcf/purposes-${code}.json` : null,
    summary: summarize(translateGvl(gvl, translation), scope),
    vendorCount: scope.vendors.length,
    atps: googleAtps ? atpsOf(googleAtps, await files.atpList()) : [],
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
  readonly language: CmpLanguage;
  readonly config: InstanceConfig | null;
  readonly outcomeUrl: string | null;
  readonly files: TcfFiles;
};

export async function promptPageConfig({ language, config, outcomeUrl, files }: Options): Promise<PageConfig> {
  const messages = catalogues[language];
  const prompt = config?.prompt ?? null;
  const tcf = config?.tcf ? await pageTcf(config.tcf, language, files) : null;
  return {
    lang: language,
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
  };
}
