/**
 * The full IAB TCF v2 CMP API on the IAB's `@iabtechlabtcf/cmpapi`: it takes over the stub's
 * queue and answers from the consent signal, updated on every change (PRODUCT 3.9).
 */
import { CmpApi } from '@iabtechlabtcf/cmpapi';
import { diagnose } from '../consent/diagnose.ts';
import type { ConsentSignal, SignalSource } from '../consent/signal-source.ts';
import { completeTcData, tcfInputOf } from './tcf-data.ts';

type Next = (data: unknown, success: boolean) => void;

export function startTcfApi(source: SignalSource): void {
  let signal = source.current();
  let isDecoded = true;
  const complete = (next: Next, data: unknown, success: boolean) => next(completeTcData(data, signal, isDecoded), success);
  const api = new CmpApi(source.cmpId, source.cmpVersion, false, { getTCData: complete });
  let last = '';
  const update = (next: ConsentSignal) => {
    signal = next;
    const input = tcfInputOf(next);
    if (!next.isKnown || last === (last = JSON.stringify([input, next.isPromptShown]))) return;
    try {
      api.update(input, next.isPromptShown);
      isDecoded = true;
    } catch {
      isDecoded = false;
      source.report(diagnose('consent-tcf-string-invalid', 'a TC string that decodes', input));
      api.update('', next.isPromptShown);
    }
  };
  source.subscribe(update);
  update(signal);
}
