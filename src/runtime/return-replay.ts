/**
 * The return record's replay (docs/decisions/consent-return-record.md): once `<page-consent>` is
 * parsed, its entry in the record (src/wire/return-record.ts) opens the gate for what the stored
 * decision allowed when the record was written, while the page is still parsed and before the
 * consent element or any of its parts is there. The `consent-replay` service tells the element
 * what was replayed. Pages without `<page-consent>` pay one query.
 */
import { isParsed } from '../browser-shared/blocked-scripts.ts';
import { type ConsentReplay, configKeyOf, readReturnEntry, RETURN_RECORD } from '../wire/return-record.ts';
import type { ConsentGate } from './consent-gate.ts';
import type { StorageService } from './types.ts';

const CONSENT = 'page-consent';

export function replayReturnRecord(doc: Document, gate: ConsentGate, storage: Pick<StorageService, 'get'>, provide: (replay: ConsentReplay) => void): void {
  let isRead = false;
  let keys: Readonly<Record<string, 0 | 1>> | undefined;
  let onMiss = () => {};
  const missed = new Promise<void>((resolve) => (onMiss = resolve));
  const check = () => {
    // After the replay, each parsed batch of nodes is offered to the gate's subscribers.
    if (keys) return gate.replay(keys, onMiss);
    const element = doc.querySelector(CONSENT);
    if (isRead || !element || !isParsed(element)) return;
    isRead = true;
    const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
    const entry = readReturnEntry(storage.get(RETURN_RECORD), configKeyOf(element, hasGpc), storage.get, Date.now());
    if (entry) gate.replay((keys = entry.q), onMiss);
    provide(entry && { mayWait: entry.i === 1, missed });
  };
  if (doc.readyState !== 'loading') return check();
  // Watched while parsed only where the element (or its script) is already in the document.
  if (doc.querySelector(`${CONSENT},script[custom-element=${CONSENT}]`)) {
    const observer = new MutationObserver(check);
    observer.observe(doc, { childList: true, subtree: true });
    doc.addEventListener('DOMContentLoaded', () => observer.disconnect(), { once: true });
  }
  doc.addEventListener('DOMContentLoaded', check, { once: true });
}
