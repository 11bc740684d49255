/**
 * The return record's writer (docs/decisions/consent-return-record.md), in the state part: the
 * entry of one `<page-consent>` config in its `page-return:` item, made with the fast path's
 * reading of the config and the cached decision (every geo variant, variants.ts) and the policy's
 * `decide`, handed over as `rules` (the core's config parse, the state part's own rules). Run at
 * idle after the state part saved or found a decision the record did not cover.
 */
import type { StorageService } from '../runtime/index.ts';
import { decisionKeyOf } from './controller.ts';
import { type ConsentRules, variantsOf } from './variants.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';
import { readReturnEntry, requestKeyOf, RETURN_CONFIGS, RETURN_PREFIX } from '../wire/return-record.ts';

const DAY_MS = 86_400_000;
const ignore = () => {};

/** States that leave nothing to wait for: the element's set-up may then wait for idle. */
const SETTLED = ['accepted', 'rejected', 'not-required'];

/**
 * Writes `element`'s entry, the localStorage item `item` (`returnKeyOf`, given by the consent
 * core, whose bytes hold the release: this part's do not, so its name changes only with its code), or removes it when the decision cannot be replayed: none stored, an
 * expired one, an invalid config, Consent Mode). The requests of this page are added to those the
 * entry already knew for the same decision. Of the origin's other entries, those no longer valid
 * are removed, and the ones that end first beyond RETURN_CONFIGS in all. Without localStorage
 * nothing is written (the next page then waits for the element).
 */
export function writeReturnRecord(
  storage: Pick<StorageService, 'get'>,
  element: Element,
  item: string,
  rules: ConsentRules,
  now = Date.now(),
): void {
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  try {
    // The requests an entry for the same decision knew (its lines after the wait flag), by key.
    const known = new Map(
      (readReturnEntry(localStorage.getItem(item), storage.get, now)?.slice(1) ?? []).map((line) => [
        line.slice(1),
        line,
      ]),
    );
    localStorage.removeItem(item);
    // The origin's other valid entries, by the time they end.
    const others: [string, number][] = [];
    for (const name of Object.keys(localStorage)) {
      if (!name.startsWith(RETURN_PREFIX) || name === item) continue;
      const text = localStorage.getItem(name);
      if (readReturnEntry(text, storage.get, now)) others.push([name, Number(text?.split('\n')[2])]);
      else localStorage.removeItem(name);
    }
    others.sort((a, b) => b[1] - a[1]);
    for (const [name] of others.slice(RETURN_CONFIGS - 1)) localStorage.removeItem(name);
    const variants = variantsOf(readConfigScript(element), now, hasGpc, storage.get, rules);
    const key = variants[0] && decisionKeyOf(variants[0].config.consentInstanceId);
    const stored = key && storage.get(key);
    const until = Math.min(
      ...variants.map(({ config, cached }) =>
        cached ? cached.time + config.consentLifetime[cached.state] * DAY_MS : 0,
      ),
    );
    if (!key || stored === undefined || now >= until) return;
    const metaBlocked = readMetaBlockedTags(document);
    for (const blocked of document.querySelectorAll(
      ['[data-block-on-consent]', '[data-block-on-consent-purposes]', ...metaBlocked].join(),
    )) {
      const request = readBlockRequest(blocked, metaBlocked, ignore);
      const requestKey = request && requestKeyOf(request);
      if (request && requestKey)
        known.set(
          requestKey,
          `${variants.every(({ input }) => rules.decide(request, input) === 'allow') ? '+' : '-'}${requestKey}`,
        );
    }
    // A post-prompt UI outside the element is shown in place: it may not wait (it would shift the page later).
    const isPostInPlace = variants.some(
      ({ config: { postPromptUI: id } }) => id !== undefined && !element.querySelector(`#${CSS.escape(id)}`),
    );
    // The publisher's server is asked on every page as soon as the element starts: no wait with a checkConsentHref.
    const mayWait =
      !isPostInPlace &&
      variants.every(
        ({ config, input }) =>
          SETTLED.includes(input.state.kind) &&
          !config.exposesTcfApi &&
          !config.exposesGppApi &&
          !config.checkConsentHref,
      );
    localStorage.setItem(item, [key, JSON.stringify(stored), until, mayWait ? 1 : 0, ...known.values()].join('\n'));
  } catch {}
}
