/**
 * The full IAB TCF v2.2 CMP API on the IAB's `@iabtechlabtcf/cmpapi`: it takes over the stub's
 * queue and answers from the consent signal, updated on every change (docs/consent.md,
 * "Signals for ad tech"). Service-specific strings only (no `outOfBand`), the same
 * `apiVersion` as the stub, and only the commands the spec defines reach the library. While a
 * decision's TC string is on its way, calls wait (`tcloaded` comes with the string).
 */
import { CmpApi } from '@iabtechlabtcf/cmpapi';
import { guardApi } from '../consent/api-stub.ts';
import { diagnose } from '../consent/diagnose.ts';
import { TCF_API, TCF_API_VERSION } from '../consent/signal-apis.ts';
import type { ConsentSignal, SignalSource } from '../consent/signal-source.ts';
import { completeTcData, isTcStringWaiting, tcfInputOf } from './tcf-data.ts';

type Next = (data: unknown, success: boolean) => void;

export function startTcfApi(source: SignalSource): void {
  let signal = source.current();
  let isDecoded = true;
  const complete = (next: Next, data: unknown, success: boolean) => next(completeTcData(data, signal, isDecoded), success);
  const ping = (next: Next, data: unknown, success: boolean) => next({ ...(data as object), apiVersion: TCF_API_VERSION }, success);
  const api = new CmpApi(source.cmpId, source.cmpVersion, true, { getTCData: complete, ping });
  guardApi(TCF_API);
  let last = '';
  const update = (next: ConsentSignal) => {
    signal = next;
    const input = tcfInputOf(next);
    if (!next.isKnown || isTcStringWaiting(next, source.hasGpp)) return;
    if (last === (last = JSON.stringify([input, next.isPromptShown]))) return;
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
