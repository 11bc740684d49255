/**
 * The return record's writer (docs/decisions/consent-return-record.md), in the `record` part: the
 * entry of one `<page-consent>` config in the site store's `consent-return`, made with the fast
 * path's reading of the config and the cached decision (every geo variant) and the policy's
 * `decide`. Run at idle after the state part saved or found a decision the record did not cover.
 */
import type { StorageService } from '../runtime/index.ts';
import { decide } from './policy.ts';
import { decisionKeyOf } from './controller.ts';
import { variantsOf } from './fast-path.ts';
import { readBlockRequest, readMetaBlockedTags } from '../wire/block-markers.ts';
import { configKeyOf, readReturnEntry, requestKeyOf, RETURN_CONFIGS, RETURN_RECORD } from '../wire/return-record.ts';

const DAY_MS = 86_400_000;
const ignore = () => {};

/** States that leave nothing to wait for: the element's set-up may then wait for idle. */
const SETTLED = ['accepted', 'rejected', 'not-required'];

/**
 * Writes `element`'s entry (or removes it when the decision cannot be replayed: none stored, an
 * expired one, an invalid config, Consent Mode), keeping the RETURN_CONFIGS most recent entries.
 * The requests of this page are added to those the entry already knew for the same decision.
 */
export function writeReturnRecord(storage: Pick<StorageService, 'get' | 'set'>, element: Element, now = Date.now()): void {
  const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  const configKey = configKeyOf(element, hasGpc);
  const record = storage.get(RETURN_RECORD);
  const entries: Record<string, unknown> = record !== null && typeof record === 'object' && !Array.isArray(record) ? { ...record } : {};
  const previous = readReturnEntry(record, configKey, storage.get, now);
  delete entries[configKey];
  const variants = variantsOf(element, now, hasGpc);
  const k = variants[0] && decisionKeyOf(variants[0].config.consentInstanceId);
  const stored = k && storage.get(k);
  const until = Math.min(...variants.map(({ config, cached }) => (cached ? cached.time + config.consentLifetime[cached.state] * DAY_MS : 0)));
  if (k && stored !== undefined && now < until) {
    const q: Record<string, 0 | 1> = { ...previous?.q };
    const metaBlocked = readMetaBlockedTags(document);
    const selector = ['[data-block-on-consent]', '[data-block-on-consent-purposes]', ...metaBlocked].join();
    for (const blocked of document.querySelectorAll(selector)) {
      const request = readBlockRequest(blocked, metaBlocked, ignore);
      if (request) q[requestKeyOf(request)] = variants.every(({ input }) => decide(request, input) === 'allow') ? 1 : 0;
    }
    // A post-prompt UI outside the element is shown in place: it may not wait (it would shift the page later).
    const isPostInPlace = variants.some(({ config: { postPromptUI: id } }) => id !== undefined && !element.querySelector(`#${CSS.escape(id)}`));
    const mayWait = !isPostInPlace && variants.every(({ config, input }) => SETTLED.includes(input.state.kind) && !config.exposesTcfApi && !config.exposesGppApi);
    entries[configKey] = { k, r: JSON.stringify(stored), u: until, q, i: mayWait ? 1 : 0 };
  }
  const keys = Object.keys(entries);
  for (const key of keys.slice(0, Math.max(0, keys.length - RETURN_CONFIGS))) delete entries[key];
  storage.set(RETURN_RECORD, entries);
}
