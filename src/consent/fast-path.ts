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
import { startEventOf } from './lifetime.ts';
import { decide, type PolicyInput } from './policy.ts';
import { initialModel, reduceConsent } from './state.ts';
import { type ConsentRules, variantsOf } from './variants.ts';
import type { BlockRequest } from '../runtime/index.ts';
import { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';
import { ACTIVATED, BLOCKED_SCRIPTS, isParsed, runBlockedScript } from '../browser-shared/blocked-scripts.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { readStoredValues } from '../browser-shared/site-store.ts';
import { parseStoredConsent } from '../wire/consent.ts';
import { parseConsentConfig } from '../wire/consent-config.ts';
import { CMP_PRESETS } from '../wire/consent-presets.ts';
import { readLoadableUrl } from '../wire/url.ts';

const ignore = () => {};

/** The fast path's own copy of the rules, over `element`'s config (`json`). */
export const rulesOf = (element: Element, json: unknown): ConsentRules => ({
  parseConfig: (geoGroups) =>
    element.id
      ? parseConsentConfig(json, {
          geoGroups,
          type: element.getAttribute('type'),
          baseUrl: location.href,
          presets: CMP_PRESETS,
        }).value
      : null,
  parseStored: (value, now) => parseStoredConsent(value, now).value,
  reduceConsent,
  initialModel,
  startEventOf,
  decide,
});

export function startFastPath(): void {
  let inputs: PolicyInput[] | undefined;
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  // The first script starts at once (not in a microtask after the rest of the consent bundle's
  // set-up); each later one after the previous one.
  let chain: Promise<void> | undefined;
  const isAllowed = (request: BlockRequest | null) =>
    !!request && !!inputs?.length && inputs.every((input) => decide(request, input) === 'allow');
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
        const json = readConfigScript(element);
        inputs = variantsOf(
          json,
          Date.now(),
          hasGpc,
          (name) => (Object.hasOwn(values, name) ? values[name] : undefined),
          rulesOf(element, json),
        ).map((variant) => variant.input);
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
