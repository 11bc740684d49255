/**
 * The return record's writer (docs/decisions/consent-return-record.md), in the `record` part: the
 * entry of one `<page-consent>` config in the `page-return:{hostname}` item, made with the fast
 * path's reading of the config and the cached decision (every geo variant) and the policy's
 * `decide`. Run at idle after the state part saved or found a decision the record did not cover.
 */
import type { StorageService } from '../runtime/index.ts';
import { decide } from './policy.ts';
import { decisionKeyOf } from './controller.ts';
import { variantsOf } from './fast-path.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';
import { configKeyOf, entriesOf, readReturnEntry, requestKeyOf, RETURN_CONFIGS, returnKeyOf } from '../wire/return-record.ts';

const DAY_MS = 86_400_000;
const ignore = () => {};

/** States that leave nothing to wait for: the element's set-up may then wait for idle. */
const SETTLED = ['accepted', 'rejected', 'not-required'];

/**
 * Writes `element`'s entry (or removes it when the decision cannot be replayed: none stored, an
 * expired one, an invalid config, Consent Mode), keeping the RETURN_CONFIGS most recent entries.
 * The requests of this page are added to those the entry already knew for the same decision.
 * Without localStorage nothing is written (the next page then waits for the element).
 */
export function writeReturnRecord(storage: Pick<StorageService, 'get'>, element: Element, now = Date.now()): void {
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  const configKey = configKeyOf(element.id, element.getAttribute('type'), readConfigScript(element), hasGpc);
  const item = returnKeyOf(location.hostname);
  try {
    const text = localStorage.getItem(item);
    // The requests an entry for the same decision knew (its lines after the wait flag), by key.
    const known = new Map((readReturnEntry(text, configKey, storage.get, now)?.slice(1) ?? []).map((line) => [line.slice(1), line]));
    const entries = entriesOf(text).filter(([name]) => name !== configKey);
    const variants = variantsOf(element, now, hasGpc);
    const key = variants[0] && decisionKeyOf(variants[0].config.consentInstanceId);
    const stored = key && storage.get(key);
    const until = Math.min(...variants.map(({ config, cached }) => (cached ? cached.time + config.consentLifetime[cached.state] * DAY_MS : 0)));
    if (key && stored !== undefined && now < until) {
      const metaBlocked = readMetaBlockedTags(document);
      for (const blocked of document.querySelectorAll(['[data-block-on-consent]', '[data-block-on-consent-purposes]', ...metaBlocked].join())) {
        const request = readBlockRequest(blocked, metaBlocked, ignore);
        const requestKey = request && requestKeyOf(request);
        if (request && requestKey !== null) known.set(requestKey, `${variants.every(({ input }) => decide(request, input) === 'allow') ? '+' : '-'}${requestKey}`);
      }
      // A post-prompt UI outside the element is shown in place: it may not wait (it would shift the page later).
      const isPostInPlace = variants.some(({ config: { postPromptUI: id } }) => id !== undefined && !element.querySelector(`#${CSS.escape(id)}`));
      const mayWait = !isPostInPlace && variants.every(({ config, input }) => SETTLED.includes(input.state.kind) && !config.exposesTcfApi && !config.exposesGppApi);
      entries.push([configKey, key, JSON.stringify(stored), String(until), mayWait ? '1' : '0', ...known.values()]);
    }
    const kept = entries.slice(-RETURN_CONFIGS);
    if (kept.length) localStorage.setItem(item, kept.map((lines) => lines.join('\n')).join('\n\n'));
    else localStorage.removeItem(item);
  } catch {}
}
