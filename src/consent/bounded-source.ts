/**
 * The consent signal as the TCF and GPP parts read it (docs/consent.md, "Bounded consent
 * strings"): a TC or GPP string that the check of src/wire/consent-string-bounds.ts refuses is
 * no string (nor of any type), so no IAB decoder ever sees it, and the APIs answer as for a
 * decision without one. Each new string is checked once, and its refusal reported once. Only
 * the strings a part decodes are checked: TC strings (type 2, or none) with the TCF part, GPP
 * strings (type 4) with the GPP part.
 */
import type { Diagnostic } from '../runtime/index.ts';
import { checkGppString, checkTcString } from '../wire/consent-string-bounds.ts';
import { parseAdditionalConsent } from '../wire/additional-consent.ts';
import { type ConsentSignal, type SignalSource, STRING_TYPE } from './signal-source.ts';

export function boundedSource(source: SignalSource): SignalSource {
  let checked = '';
  let refusal: Diagnostic | null = null;
  let checkedAc: string | undefined;
  let isAcRefused = false;
  const withAc = (signal: ConsentSignal): ConsentSignal => {
    const { additionalConsent: ac, ...rest } = signal.consentMetadata ?? {};
    if (ac !== checkedAc) {
      checkedAc = ac;
      const { diagnostics } = ac === undefined ? { diagnostics: [] } : parseAdditionalConsent(ac);
      isAcRefused = diagnostics.length > 0;
      for (const d of diagnostics) source.report(d, 'warn');
    }
    return isAcRefused ? { ...signal, consentMetadata: rest } : signal;
  };
  const bounded = (unchecked: ConsentSignal): ConsentSignal => {
    const signal = withAc(unchecked);
    const { consentString = '', consentMetadata } = signal;
    const { consentStringType: type, ...metadata } = consentMetadata ?? {};
    const check =
      type === STRING_TYPE.gpp
        ? source.hasGpp && checkGppString
        : (type ?? STRING_TYPE.tcfV2) === STRING_TYPE.tcfV2 && source.hasTcf && checkTcString;
    if (checked !== (checked = `${type}:${consentString}`)) {
      refusal = check && consentString ? check(consentString) : null;
      if (refusal) source.report(refusal);
    }
    return refusal ? { ...signal, consentString: undefined, consentMetadata: metadata } : signal;
  };
  return {
    ...source,
    current: () => bounded(source.current()),
    subscribe: (listener) => source.subscribe((signal) => listener(bounded(signal))),
  };
}
