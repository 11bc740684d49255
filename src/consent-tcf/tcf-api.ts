/**
 * The full IAB TCF v2.2 CMP API on the IAB's `@iabtechlabtcf/cmpapi`: it takes over the stub's
 * queue and answers from the consent signal, updated on every change (docs/consent.md,
 * "Signals for ad tech"). Service-specific strings only (no `outOfBand`), the same
 * `apiVersion` as the stubs, and only the commands the spec defines reach the library. While a
 * decision's TC string is on its way (built by us, or inside a GPP string the GPP part decodes),
 * calls wait: `tcloaded` comes with the string.
 */
import { CmpApi } from '@iabtechlabtcf/cmpapi';
import { filterQueue, guardApi, takeOverBridges } from '../consent/api-guard.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { TCF_API, TCF_API_VERSION } from '../consent/signal-apis.ts';
import type { ConsentSignal, SignalSource, TcfFromGpp } from '../consent/signal-source.ts';
import { completeTcData, isTcStringWaiting, tcfInputOf } from './tcf-data.ts';

type Next = (data: unknown, success: boolean) => void;

/** `fromGpp`: resolves with the GPP part's channel (null: none comes); null without the GPP API. */
export function startTcfApi(source: SignalSource, fromGpp: Promise<TcfFromGpp | null> | null): void {
  let signal = source.current();
  let isDecoded = true;
  let channel: TcfFromGpp | null | undefined = fromGpp ? undefined : null;
  // The library applies it to addEventListener's and removeEventListener's answers too.
  const complete = (next: Next, data: unknown, success: boolean) => {
    const completed = completeTcData(data, signal, isDecoded, channel);
    const isObject = !!completed && typeof completed === 'object';
    next(
      source.enableAdvertiserConsentMode && isObject ? { ...completed, enableAdvertiserConsentMode: true } : completed,
      success,
    );
  };
  const ping = (next: Next, data: unknown, success: boolean) =>
    next({ ...(data as object), apiVersion: TCF_API_VERSION }, success);
  filterQueue(TCF_API);
  const api = new CmpApi(source.cmpId, source.cmpVersion, true, { getTCData: complete, ping });
  guardApi(TCF_API);
  takeOverBridges(source.report);
  let last = '';
  const update = (next: ConsentSignal) => {
    signal = next;
    const input = tcfInputOf(next, channel);
    if (!next.isKnown || isTcStringWaiting(next, channel)) return;
    if (last === (last = JSON.stringify([input, next.isPromptShown]))) return;
    try {
      api.update(input, next.isPromptShown);
      isDecoded = true;
    } catch {
      isDecoded = false;
      source.report(diagnostic('consent-tcf-string-invalid', 'a TC string that decodes', input), 'warn');
      api.update('', next.isPromptShown);
    }
  };
  fromGpp?.then((found) => {
    channel = found;
    found?.subscribe(() => update(signal));
    update(signal);
  });
  source.subscribe(update);
  update(signal);
}
