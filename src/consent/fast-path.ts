/**
 * The return-visit fast path (docs/consent.md "Return visits"): starts each blocked `text/plain`
 * script that the cached decision already allows, while the page is parsed, without waiting for
 * `v0.js`, the element lifecycle or the end of parsing. The consent extension runs it as soon as
 * it executes; `page-consent-fast-0.1.js` is the same code for publishers to inline right after
 * `</page-consent>`. It decides with the components' own code (config parser, cached-decision
 * parser, lifetime, reducer, policy, script rules), and only when the answer is the same for
 * every geo group the config knows (the groups are not known yet); anything else is left to the
 * components. It writes and reports nothing: the consent element reads the same config and
 * storage and reports what is wrong.
 */
import { decisionKeyOf } from './controller.ts';
import { startEventOf } from './lifetime.ts';
import { decide, type PolicyInput } from './policy.ts';
import { initialModel, reduceConsent } from './state.ts';
import type { BlockRequest } from '../runtime/index.ts';
import { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';
import { ACTIVATED, BLOCKED_SCRIPTS, isParsed, runBlockedScript } from '../browser-shared/blocked-scripts.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { readStoredValues } from '../browser-shared/site-store.ts';
import { parseStoredConsent, type StoredConsent } from '../wire/consent.ts';
import { type ConsentConfig, isObject, parseConsentConfig } from '../wire/consent-config.ts';
import { CMP_PRESETS } from '../wire/consent-presets.ts';
import { readLoadableUrl } from '../wire/url.ts';

const ignore = () => {};

/** The config of one geo variant, its cached decision and the policy input they make. */
export type Variant = { readonly config: ConsentConfig; readonly cached: StoredConsent | null; readonly input: PolicyInput };

/**
 * The cached decision under the base config and each `geoOverride` group; none when any config is
 * invalid or has Consent Mode. Shared with the return record's writer (src/consent/return-record.ts),
 * which passes the runtime's storage; `stored` reads a site-store value.
 */
export function variantsOf(element: Element, now: number, hasGpc: boolean, stored: (name: string) => unknown): Variant[] {
  const json = readConfigScript(element);
  const groups = isObject(json) && isObject(json.geoOverride) ? Object.keys(json.geoOverride) : [];
  const variants: Variant[] = [];
  for (const geoGroups of [[], ...groups.map((group) => [group])]) {
    const config = element.id ? parseConsentConfig(json, { geoGroups, type: element.getAttribute('type'), baseUrl: location.href, presets: CMP_PRESETS }).value : null;
    // Consent Mode's default must reach gtag before any script (docs/consent.md, "Signals for ad tech"); the element sends it.
    if (!config || config.consentModeMapping !== undefined) return [];
    const cached = parseStoredConsent(stored(decisionKeyOf(config.consentInstanceId)), now).value;
    const model = reduceConsent(initialModel, startEventOf(config, cached, now, hasGpc));
    // A prompt is assumed: an undecided state then waits, as it may for the components.
    variants.push({ config, cached, input: { state: model.state, purposeConsents: model.purposeConsents, fallbackAction: config.fallbackAction, hasPrompt: true } });
  }
  return variants;
}

export function startFastPath(): void {
  let inputs: PolicyInput[] | undefined;
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  // The first script starts at once (not in a microtask after the rest of the consent bundle's
  // set-up); each later one after the previous one.
  let chain: Promise<void> | undefined;
  const isAllowed = (request: BlockRequest | null) => !!request && !!inputs?.length && inputs.every((input) => decide(request, input) === 'allow');
  const take = () => {
    let metaBlockedTags: Set<string> | undefined;
    for (const blocked of document.querySelectorAll<HTMLScriptElement>(BLOCKED_SCRIPTS)) {
      // A script still being parsed may not have all its text yet: it is taken on a later call.
      if (!isParsed(blocked)) continue;
      // The decision (storage, config, rules) is read only once there is a script to decide on,
      // so an inline copy costs next to nothing while the parser is still ahead of the scripts.
      if (!inputs) {
        const element = document.querySelector('page-consent');
        if (!element || !isParsed(element)) return;
        // The site store is decoded once for every geo variant.
        const values = readStoredValues(self, location.hostname);
        inputs = variantsOf(element, Date.now(), hasGpc, (name) => (Object.hasOwn(values, name) ? values[name] : undefined)).map((variant) => variant.input);
      }
      if (!isAllowed(readBlockRequest(blocked, (metaBlockedTags ??= readMetaBlockedTags(document)), ignore))) continue;
      const src = blocked.getAttribute('src');
      if (src !== null && !readLoadableUrl(src, document.baseURI, { report: ignore })) continue;
      blocked.setAttribute(ACTIVATED, '');
      chain = chain ? chain.then(() => runBlockedScript(document, blocked)) : runBlockedScript(document, blocked);
    }
  };
  take();
  if (document.readyState !== 'loading') return;
  // Then each script as the parser adds it, until the document is parsed.
  const observer = new MutationObserver(take);
  observer.observe(document, { childList: true, subtree: true });
  const stop = () => {
    observer.disconnect();
    take();
  };
  document.addEventListener('DOMContentLoaded', stop, { once: true });
}
