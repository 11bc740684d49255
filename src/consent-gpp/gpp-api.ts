/**
 * The full IAB GPP v1.1 CMP API on the IAB's `@iabgpp/cmpapi`: it takes over the stub's queue;
 * `signalStatus` stays `not ready` until the consent state is known, and every change of the
 * string fires `sectionChange` per section, then `signalStatus` `ready` (PRODUCT 3.9).
 */
import { CmpApi, CmpDisplayStatus, CmpStatus, SignalStatus } from '@iabgpp/cmpapi';
import { diagnose } from '../consent/diagnose.ts';
import { type ConsentSignal, type SignalSource, STRING_TYPE, stringOfType } from '../consent/signal-source.ts';
import { applicableSectionsOf } from './gpp-sections.ts';

export function startGppApi(source: SignalSource): void {
  const api = new CmpApi(source.cmpId, source.cmpVersion);
  api.setCmpStatus(CmpStatus.LOADED);
  let last = '';
  /** The section names of `gppString`, decoded by the library; null when it does not decode. */
  const decode = (gppString: string): string[] | null => {
    try {
      api.setGppString(gppString);
      return Object.keys(api.getObject());
    } catch {
      source.report(diagnose('consent-gpp-string-invalid', 'a GPP string that decodes', gppString));
      api.clear();
      return null;
    }
  };
  const update = (signal: ConsentSignal) => {
    api.setCmpDisplayStatus(signal.isPromptShown ? CmpDisplayStatus.VISIBLE : CmpDisplayStatus.HIDDEN);
    const gppString = stringOfType(signal, STRING_TYPE.gpp);
    const key = JSON.stringify([signal.isKnown, gppString, signal.consentMetadata?.gppSectionId]);
    if (!signal.isKnown || last === (last = key)) return;
    api.setSignalStatus(SignalStatus.NOT_READY);
    const sections = gppString ? decode(gppString) : (api.clear(), []);
    api.setApplicableSections(applicableSectionsOf(signal.consentMetadata?.gppSectionId));
    api.setSupportedAPIs(sections ?? []);
    for (const name of sections ?? []) api.fireSectionChange(name);
    api.setSignalStatus(SignalStatus.READY);
  };
  source.subscribe(update);
  update(source.current());
}
