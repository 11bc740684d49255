// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { clientInfoOf, createPromptFrame, READY_TIMEOUT_MS, sandboxOf } from '../../../src/consent/prompt-frame.ts';
import { initialModel } from '../../../src/consent/state.ts';
import type { Ui } from '../../../src/consent/ui.ts';

const due = { ...initialModel, state: { kind: 'unknown', hasTimedOut: false }, isPromptShown: true } as const;

function setup(fallback: HTMLElement | null) {
  const timers: { callback: () => void; ms: number }[] = [];
  const clock = {
    setTimeout: (callback: () => void, ms: number) => timers.push({ callback, ms }),
    clearTimeout: vi.fn(),
  };
  const report = vi.fn();
  const slot = document.body.appendChild(document.createElement('div'));
  const ui = Object.assign(() => {}, { hasPrompt: true, setModal: vi.fn() }) as Ui;
  const follow = createPromptFrame(slot, ui, {
    src: 'https://cmp.example/ui?s=CONSENT_INFO(consentStateValue)',
    sandbox: undefined,
    clientConfig: undefined,
    fallback,
    caption: 'Privacy',
    buttonCaption: 'Focus',
    expandUrl: async (template) => template.replace('CONSENT_INFO(consentStateValue)', 'unknown'),
    clock,
    report,
    decide: vi.fn(),
  });
  return { timers, report, slot, follow };
}

describe('createPromptFrame', () => {
  it('times out on the injected clock after 10 s: a diagnostic, the iframe removed, the inline prompt shown', async () => {
    const inline = Object.assign(document.createElement('div'), { id: 'inline', hidden: true });
    const { timers, report, slot, follow } = setup(inline);
    follow(due);
    await vi.waitFor(() => expect(slot.querySelector('iframe')).not.toBeNull());
    expect(slot.querySelector('iframe')?.getAttribute('sandbox')).toBe('allow-scripts allow-popups allow-same-origin');
    expect(timers.map((t) => t.ms)).toEqual([READY_TIMEOUT_MS]);
    expect(READY_TIMEOUT_MS).toBe(10_000);
    timers[0]!.callback();
    expect(report.mock.calls.map(([d]) => d.code)).toEqual(['consent-prompt-frame-timeout']);
    expect(slot.querySelector('iframe')).toBeNull();
    expect(slot.firstElementChild).toBe(inline);
    expect(inline.hidden).toBe(false);
  });

  it('creates nothing while no prompt is due', () => {
    const { timers, slot, follow } = setup(null);
    follow({ ...due, isPromptShown: false });
    expect(slot.childNodes.length).toBe(0);
    expect(timers).toEqual([]);
  });
});

describe('sandboxOf and clientInfoOf', () => {
  it('adds allow-same-origin only cross-origin, and only the two allowed extras', () => {
    const report = vi.fn();
    expect(sandboxOf('allow-top-navigation-by-user-activation allow-forms', false, report)).toBe(
      'allow-scripts allow-popups allow-top-navigation-by-user-activation',
    );
    expect(report.mock.calls.map(([d]) => [d.code, d.got])).toEqual([['consent-sandbox-invalid', '"allow-forms"']]);
    expect(sandboxOf(undefined, true, report)).toBe('allow-scripts allow-popups allow-same-origin');
  });

  it('gives the CMP the decision and the trigger', () => {
    const model = {
      ...due,
      state: { kind: 'accepted' },
      consentString: 'CS',
      purposeConsents: { ads: true },
      tcfPolicyVersion: 4,
    } as const;
    expect(JSON.parse(clientInfoOf(model, { a: 1 }, 'action'))).toEqual({
      clientConfig: { a: 1 },
      consentStateValue: 'accepted',
      consentString: 'CS',
      purposeConsents: { ads: true },
      tcfPolicyVersion: 4,
      promptTrigger: 'action',
      isDirty: false,
    });
  });

  it('gives the CMP the kept purpose choices after an expiry (docs/consent.md, "Consent lifetime")', () => {
    const model = { ...due, purposeConsents: {}, expiredPurposes: { ads: true, analytics: false } } as const;
    expect(JSON.parse(clientInfoOf(model, undefined, 'load'))).toMatchObject({
      consentStateValue: 'unknown',
      purposeConsents: { ads: true, analytics: false },
    });
  });
});
