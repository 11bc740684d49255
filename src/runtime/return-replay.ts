/**
 * The return record's replay (docs/decisions/consent-return-record.md): once the page is parsed,
 * `<page-consent>`'s entry in the record (src/wire/return-record.ts) opens the gate for what the
 * stored decision allowed when the entry was written, before the consent element or any of its
 * parts is there. The `consent-replay` service tells the element what was replayed. Pages
 * without `<page-consent>` pay one query.
 */
import { type ConsentReplay, configKeyOf, readReturnEntry, returnKeyOf } from '../wire/return-record.ts';
import type { ConsentGate } from './consent-gate.ts';
import type { StorageService } from './types.ts';

export function replayReturnRecord(doc: Document, gate: ConsentGate, storage: Pick<StorageService, 'get'>, provide: (replay: ConsentReplay) => void): void {
  const replay = () => {
    const element = doc.querySelector('page-consent');
    if (!element) return;
    const hasGpc = (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
    let text: string | null = null;
    try {
      text = localStorage.getItem(returnKeyOf(location.hostname));
    } catch {}
    const lines = readReturnEntry(text, configKeyOf(element, hasGpc), storage.get, Date.now());
    let onMiss = () => {};
    const missed = new Promise<void>((resolve) => (onMiss = resolve));
    if (lines) gate.replay(lines, onMiss);
    provide(lines && { mayWait: lines[0] === '1', missed });
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', replay, { once: true });
  else replay();
}
