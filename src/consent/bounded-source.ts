/**
 * The consent signal as the TCF and GPP parts read it (docs/consent.md, "Bounded consent
 * strings"): a TC or GPP string that the check of src/wire/consent-string-bounds.ts refuses is
 * no string, so no IAB decoder ever sees it, and the APIs answer as for a decision without one.
 */
import type { Diagnostic } from '../runtime/index.ts';
import type { ConsentSignal, SignalSource } from './signal-source.ts';

/** Whether `check` refuses a string: each new string checked once, its refusal reported once when `report` is given. */
export function refusalsOf(check: (text: string) => Diagnostic | null, report?: (d: Diagnostic) => void): (text: string) => boolean {
  let [last, isRefused] = ['', false];
  return (text) => {
    if (text && text !== last) {
      const refusal = check((last = text));
      if ((isRefused = !!refusal)) report?.(refusal);
    }
    return !!text && isRefused;
  };
}

/** `source` whose signals carry no consent string when `isRefused` says so. */
export function boundedSource(source: SignalSource, isRefused: (signal: ConsentSignal) => boolean): SignalSource {
  const bounded = (signal: ConsentSignal): ConsentSignal => (isRefused(signal) ? { ...signal, consentString: undefined } : signal);
  return { ...source, current: () => bounded(source.current()), subscribe: (listener) => source.subscribe((signal) => listener(bounded(signal))) };
}
