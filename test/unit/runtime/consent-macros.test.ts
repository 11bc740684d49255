import { describe, expect, it } from 'vitest';
import { registerConsentMacros } from '../../../src/runtime/consent-macros.ts';
import { CONSENT_MACROS } from '../../../src/browser-shared/consent-macros.ts';
import type { ConsentSnapshot, MacroResolver } from '../../../src/runtime/types.ts';

/** The consent macros resolved against one snapshot (null: no consent provider). */
async function expand(snapshot: Partial<ConsentSnapshot> | null): Promise<Record<string, string>> {
  const resolvers = new Map<string, MacroResolver>();
  registerConsentMacros((name, resolver) => resolvers.set(name, resolver), {
    snapshot: () => snapshot as ConsentSnapshot | null,
    subscribe: () => () => {},
  });
  const values: Record<string, string> = {};
  for (const name of CONSENT_MACROS) values[name] = await resolvers.get(name)!(undefined);
  return values;
}

describe('consent macros', () => {
  it('are empty without a consent provider', async () => {
    expect(await expand(null)).toEqual({
      GDPR: '',
      GDPR_CONSENT: '',
      CONSENT_STATE: '',
      US_PRIVACY: '',
      GPP_STRING: '',
      GPP_SID: '',
      ADDTL_CONSENT: '',
    });
  });

  it('give GDPR 1, the consent string and the state when consent is required', async () => {
    expect(await expand({ state: 'accepted', consentString: 'TCF1', isConsentRequired: true })).toEqual({
      GDPR: '1',
      GDPR_CONSENT: 'TCF1',
      CONSENT_STATE: 'accepted',
      US_PRIVACY: '',
      GPP_STRING: '',
      GPP_SID: '',
      ADDTL_CONSENT: '',
    });
  });

  it('give GDPR 0 when consent is not required', async () => {
    expect((await expand({ state: 'not-required', isConsentRequired: false })).GDPR).toBe('0');
  });

  it('route a US privacy string to US_PRIVACY only', async () => {
    const snapshot = {
      state: 'rejected',
      consentString: '1YYN',
      consentMetadata: { consentStringType: 3 },
      isConsentRequired: true,
    } as const;
    expect(await expand(snapshot as Partial<ConsentSnapshot>)).toEqual({
      GDPR: '1',
      GDPR_CONSENT: '',
      CONSENT_STATE: 'rejected',
      US_PRIVACY: '1YYN',
      GPP_STRING: '',
      GPP_SID: '',
      ADDTL_CONSENT: '',
    });
  });

  it('route a GPP string and its section ids to GPP_STRING and GPP_SID only', async () => {
    const snapshot = {
      state: 'accepted',
      consentString: 'DBABLA~BVQqAAAAAgA.QA',
      consentMetadata: { consentStringType: 4, gppSectionId: '2_7' },
      isConsentRequired: false,
    } as const;
    expect(await expand(snapshot as Partial<ConsentSnapshot>)).toEqual({
      GDPR: '0',
      GDPR_CONSENT: '',
      CONSENT_STATE: 'accepted',
      US_PRIVACY: '',
      GPP_STRING: 'DBABLA~BVQqAAAAAgA.QA',
      GPP_SID: '2,7',
      ADDTL_CONSENT: '',
    });
  });

  it('give an empty GPP_SID for a section id without numbers', async () => {
    const snapshot = {
      state: 'accepted',
      consentString: 'DBAA',
      consentMetadata: { consentStringType: 4, gppSectionId: 'none' },
    } as const;
    expect((await expand(snapshot as Partial<ConsentSnapshot>)).GPP_SID).toBe('');
  });

  it('wait for a TC string on its way, and give it once it is in', async () => {
    const resolvers = new Map<string, MacroResolver>();
    let snapshot: Partial<ConsentSnapshot> = { state: 'accepted', isConsentRequired: true, isStringPending: true };
    const listeners = new Set<() => void>();
    const subscribe = (listener: () => void) => (listeners.add(listener), () => void listeners.delete(listener));
    registerConsentMacros((name, resolver) => resolvers.set(name, resolver), {
      snapshot: () => snapshot as ConsentSnapshot,
      subscribe,
    });
    let value: string | undefined;
    const expanding = Promise.resolve(resolvers.get('GDPR_CONSENT')!(undefined)).then((v) => (value = v));
    await Promise.resolve();
    expect(value).toBeUndefined();
    snapshot = { state: 'accepted', isConsentRequired: true, consentString: 'TCF2' };
    for (const listener of listeners) listener();
    await expanding;
    expect(value).toBe('TCF2');
    expect(listeners.size).toBe(0);
  });

  it("give ADDTL_CONSENT the decision's Additional Consent string, and nothing for a malformed one", async () => {
    const snapshot = (additionalConsent: string) =>
      ({
        state: 'accepted',
        consentString: 'TCF1',
        consentMetadata: { consentStringType: 2, additionalConsent },
        isConsentRequired: true,
      }) as Partial<ConsentSnapshot>;
    expect((await expand(snapshot('2~1.35~dv.9.21'))).ADDTL_CONSENT).toBe('2~1.35~dv.9.21');
    expect((await expand(snapshot('2~~dv.1.2.3'))).ADDTL_CONSENT).toBe('2~~dv.1.2.3');
    expect((await expand(snapshot('2~1.x~dv.'))).ADDTL_CONSENT).toBe('');
    expect((await expand(snapshot('2~1~dv.'.padEnd(20_000, '1')))).ADDTL_CONSENT).toBe('');
  });
});
