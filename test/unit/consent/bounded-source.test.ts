import { describe, expect, it } from 'vitest';
import { boundedSource } from '../../../src/consent/bounded-source.ts';
import type { ConsentSignal, SignalSource } from '../../../src/consent/signal-source.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';
import { gppHeaderBomb, tcBomb, tcString } from '../../consent-string-bombs.ts';

const signalOf = (consentString: string | undefined, consentStringType?: number): ConsentSignal =>
  ({
    state: 'accepted',
    consentString,
    consentMetadata: { gdprApplies: true, ...(consentStringType && { consentStringType }) },
  }) as ConsentSignal;

/** A source whose signal is `signal` (changed with `set`), with the TCF and GPP parts as `parts` says; `reports` collects its diagnostics. */
function sourceOf(first: ConsentSignal, parts: { hasTcf: boolean; hasGpp: boolean } = { hasTcf: true, hasGpp: true }) {
  let signal = first;
  const listeners: ((signal: ConsentSignal) => void)[] = [];
  const reports: Diagnostic[] = [];
  const source = {
    ...parts,
    report: (d: Diagnostic) => reports.push(d),
    current: () => signal,
    subscribe: (listener: (signal: ConsentSignal) => void) => listeners.push(listener),
  } as unknown as SignalSource;
  const set = (next: ConsentSignal) => {
    signal = next;
    for (const listener of listeners) listener(next);
  };
  return { source, reports, set };
}

describe('boundedSource', () => {
  it('passes a TC string the check accepts as it is', () => {
    const signal = signalOf(tcString([[1, 20]]), 2);
    const { source, reports } = sourceOf(signal);
    expect(boundedSource(source).current()).toBe(signal);
    expect(reports).toEqual([]);
  });

  it('drops a refused TC string and its type, keeps the decision, and reports it once', () => {
    const { source, reports, set } = sourceOf(signalOf(tcBomb(), 2));
    const bounded = boundedSource(source);
    const seen: ConsentSignal[] = [];
    bounded.subscribe((signal) => seen.push(signal));
    expect(bounded.current()).toMatchObject({
      state: 'accepted',
      consentString: undefined,
      consentMetadata: { gdprApplies: true },
    });
    expect(bounded.current().consentMetadata).not.toHaveProperty('consentStringType');
    set(signalOf(tcBomb(), 2));
    expect(seen[0]?.consentString).toBeUndefined();
    expect(reports.map((d) => [d.code, d.got])).toEqual([['consent-string-refused', '"vendor id 65535"']]);
  });

  it('checks a string without a type as a TC string, and a GPP string (type 4) as one', () => {
    const untyped = sourceOf(signalOf(tcBomb()));
    expect(boundedSource(untyped.source).current().consentString).toBeUndefined();
    const gpp = sourceOf(signalOf(gppHeaderBomb(), 4));
    expect(boundedSource(gpp.source).current().consentString).toBeUndefined();
    expect(gpp.reports.map((d) => d.got)).toEqual([expect.stringContaining('more section ids')]);
  });

  it('checks only the strings a loaded part decodes', () => {
    const gppOnly = sourceOf(signalOf(tcBomb(), 2), { hasTcf: false, hasGpp: true });
    expect(boundedSource(gppOnly.source).current().consentString).toBe(tcBomb());
    const tcfOnly = sourceOf(signalOf(gppHeaderBomb(), 4), { hasTcf: true, hasGpp: false });
    expect(boundedSource(tcfOnly.source).current().consentString).toBe(gppHeaderBomb());
    const usPrivacy = sourceOf(signalOf('1YNN', 3));
    expect(boundedSource(usPrivacy.source).current().consentString).toBe('1YNN');
    expect([...gppOnly.reports, ...tcfOnly.reports, ...usPrivacy.reports]).toEqual([]);
  });

  it('drops a malformed Additional Consent string with one diagnostic, keeps a well-formed one', () => {
    const withAc = (additionalConsent: string): ConsentSignal =>
      ({
        state: 'accepted',
        consentString: tcString([[1, 20]]),
        consentMetadata: { gdprApplies: true, consentStringType: 2, additionalConsent },
      }) as ConsentSignal;
    const good = sourceOf(withAc('2~1.35~dv.9'));
    expect(boundedSource(good.source).current().consentMetadata?.additionalConsent).toBe('2~1.35~dv.9');
    expect(good.reports).toEqual([]);
    const { source, reports, set } = sourceOf(withAc('2~1.35'));
    const bounded = boundedSource(source);
    const seen: ConsentSignal[] = [];
    bounded.subscribe((signal) => seen.push(signal));
    expect(bounded.current().consentMetadata).toEqual({ gdprApplies: true, consentStringType: 2 });
    expect(bounded.current().consentString).toBe(tcString([[1, 20]]));
    set(withAc('2~1.35'));
    expect(seen[0]?.consentMetadata).not.toHaveProperty('additionalConsent');
    expect(reports.map((d) => d.code)).toEqual(['consent-additional-consent-invalid']);
  });
});
