// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { createConsentGate } from '../../../src/runtime/consent-gate.ts';
import { readBlockRequest, readMetaBlockedTags } from '../../../src/wire/block-markers.ts';
import { createConsentApi } from '../../../src/runtime/consent-api.ts';
import type { ConsentProvider, ConsentSnapshot, GateDecision } from '../../../src/runtime/types.ts';

const element = (markup: string) => {
  const template = document.createElement('template');
  template.innerHTML = markup;
  return template.content.firstElementChild as Element;
};

const snapshot: ConsentSnapshot = {
  state: 'accepted',
  consentString: 'abc',
  purposeConsents: { ads: true },
  consentMetadata: undefined,
  sharedData: { tier: 'gold' },
  isConsentRequired: true,
};

function fakeProvider(
  decision: GateDecision,
  checked: Promise<void> = Promise.resolve(),
): ConsentProvider & { change(): void } {
  const listeners = new Set<() => void>();
  return {
    whenChecked: () => checked,
    decide: () => decision,
    getPolicyState: async () => 'sufficient',
    snapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    change: () => {
      for (const listener of listeners) listener();
    },
  };
}

describe('readBlockRequest', () => {
  const none = new Set<string>();

  it('returns nothing for an element without markers', () => {
    expect(readBlockRequest(element('<page-img></page-img>'), none, () => {})).toBeNull();
  });

  it.each(['_till_responded', '_till_accepted', '_auto_reject'])('reads the predefined policy %s', (policy) => {
    expect(
      readBlockRequest(element(`<page-img data-block-on-consent="${policy}"></page-img>`), none, () => {}),
    ).toEqual({
      policy,
      purposes: [],
    });
  });

  it('uses the default policy without a value', () => {
    expect(readBlockRequest(element('<page-img data-block-on-consent></page-img>'), none, () => {})?.policy).toBe(
      'default',
    );
  });

  it('reports an unknown value and falls back to the default policy', () => {
    const onDiagnostic = vi.fn();
    const request = readBlockRequest(
      element('<page-img data-block-on-consent="maybe"></page-img>'),
      none,
      onDiagnostic,
    );
    expect(request?.policy).toBe('default');
    expect(onDiagnostic.mock.calls[0]?.[0]).toMatchObject({ code: 'invalid-block-policy', got: '"maybe"' });
    expect(onDiagnostic).toHaveBeenCalledTimes(1);
  });

  it('reads purposes without a policy', () => {
    const request = readBlockRequest(
      element('<page-ad data-block-on-consent-purposes="ads, measure,"></page-ad>'),
      none,
      () => {},
    );
    expect(request).toEqual({ policy: null, purposes: ['ads', 'measure'] });
  });

  it('blocks tags listed by the blocking meta tag with the default policy', () => {
    document.head.innerHTML = '<meta name="page-consent-blocking" content="page-img, PAGE-AD">';
    const tags = readMetaBlockedTags(document);
    expect([...tags]).toEqual(['page-img', 'page-ad']);
    expect(readBlockRequest(element('<page-ad></page-ad>'), tags, () => {})?.policy).toBe('default');
    expect(readBlockRequest(element('<page-iframe></page-iframe>'), tags, () => {})).toBeNull();
  });
});

describe('createConsentGate', () => {
  const request = { policy: 'default', purposes: [] } as const;

  it('is open once the document is parsed and has no page-consent', () => {
    document.body.innerHTML = '<page-img></page-img>';
    expect(createConsentGate(document, () => {}).decide(request)).toBe('allow');
  });

  it('waits while a page-consent element has no provider yet', () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    expect(createConsentGate(document, () => {}).decide(request)).toBe('pending');
  });

  it('asks the provider once installed and relays its changes', () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const gate = createConsentGate(document, () => {});
    const listener = vi.fn();
    gate.subscribe(listener);
    const provider = fakeProvider('deny');
    gate.setProvider(provider, true);
    expect(gate.decide(request)).toBe('deny');
    provider.change();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('answers the vendor API from the provider', async () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const gate = createConsentGate(document, () => {});
    gate.setProvider(fakeProvider('allow'), true);
    expect(await createConsentApi(gate.whenProvider).getPolicyState()).toBe('sufficient');
    expect(await createConsentApi(gate.whenProvider).getSharedData()).toEqual({ tier: 'gold' });
    expect(await createConsentApi(gate.whenProvider).getConsentString()).toBe('abc');
    expect(await createConsentApi(gate.whenProvider).getPurposeConsents()).toEqual({ ads: true });
  });

  it('answers the kept purposes of an expired decision at once, and other reads only after a decision', async () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const gate = createConsentGate(document, () => {});
    const expired: ConsentSnapshot = { ...snapshot, state: 'unknown', purposeConsents: { ads: false }, expired: true };
    gate.setProvider(
      { ...fakeProvider('pending'), getPolicyState: () => new Promise(() => {}), snapshot: () => expired },
      true,
    );
    let consentString: unknown = 'pending';
    createConsentApi(gate.whenProvider)
      .getConsentString()
      .then((value) => (consentString = value));
    expect(await createConsentApi(gate.whenProvider).getPurposeConsents()).toEqual({ ads: false });
    expect(consentString).toBe('pending');
  });

  it('resolves the receipt id from the provider, or null without one', async () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const gate = createConsentGate(document, () => {});
    gate.setProvider({ ...fakeProvider('allow'), getReceipt: async () => 'r1' }, true);
    expect(await createConsentApi(gate.whenProvider).getReceipt()).toBe('r1');
    const bare = createConsentGate(document, () => {});
    bare.setProvider(fakeProvider('allow'), true);
    expect(await createConsentApi(bare.whenProvider).getReceipt()).toBeNull();
  });

  it('answers sharedData only once the remote check is over', async () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const gate = createConsentGate(document, () => {});
    let settle = () => {};
    gate.setProvider(fakeProvider('allow', new Promise<void>((resolve) => (settle = resolve))), true);
    let shared: unknown = 'pending';
    createConsentApi(gate.whenProvider)
      .getSharedData()
      .then((value) => (shared = value));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shared).toBe('pending');
    settle();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shared).toEqual({ tier: 'gold' });
  });

  it('answers null to vendors on a page without page-consent', async () => {
    document.body.innerHTML = '';
    const gate = createConsentGate(document, () => {});
    expect(await createConsentApi(gate.whenProvider).getPolicyState()).toBeNull();
    expect(await createConsentApi(gate.whenProvider).getConsentString()).toBeNull();
  });

  it('keeps the first provider and refuses a later registration with a diagnostic', () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const onDiagnostic = vi.fn();
    const gate = createConsentGate(document, onDiagnostic);
    gate.setProvider(fakeProvider('deny'), true);
    gate.setProvider(fakeProvider('allow'), true);
    expect(gate.decide(request)).toBe('deny');
    expect(onDiagnostic.mock.calls[0]?.[0]).toMatchObject({
      code: 'consent-provider-refused',
      got: '"a second registration"',
    });
  });

  it('refuses a provider that does not come from page-consent, even as the first', () => {
    document.body.innerHTML = '<page-consent id="c"></page-consent>';
    const onDiagnostic = vi.fn();
    const gate = createConsentGate(document, onDiagnostic);
    gate.setProvider(fakeProvider('allow'), false);
    expect(gate.decide(request)).toBe('pending');
    expect(onDiagnostic).toHaveBeenCalledTimes(1);
  });
});
