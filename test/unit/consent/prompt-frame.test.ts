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

describe('enter-fullscreen', () => {
  const ORIGIN = 'https://cmp.example';

  /** A ready bottom sheet; `isActive` is the page's user activation when the frame asks. */
  async function askFullscreen(isActive: boolean) {
    const { slot, follow } = setup(null);
    follow(due);
    await vi.waitFor(() => expect(slot.querySelector('iframe')).not.toBeNull());
    const frame = slot.querySelector('iframe')!;
    // The CMP's window (happy-dom loads no frame page): it receives the page's replies.
    const post = vi.fn();
    const source = { postMessage: post } as unknown as Window;
    Object.defineProperty(frame, 'contentWindow', { value: source });
    const send = (data: object) => dispatchEvent(new MessageEvent('message', { data, origin: ORIGIN, source }));
    send({ type: 'consent-ui', action: 'ready' });
    // happy-dom has no user activation: the page's is given here, as Chromium would report it.
    Object.defineProperty(navigator, 'userActivation', { value: { isActive }, configurable: true });
    send({ type: 'consent-ui', action: 'enter-fullscreen' });
    delete (navigator as { userActivation?: unknown }).userActivation;
    return { slot, frame, replies: post.mock.calls.map(([reply]) => (reply as { state: string }).state) };
  }

  it('is refused to a sheet that has focus but no recent interaction of the reader', async () => {
    const { slot, frame, replies } = await askFullscreen(false);
    expect(document.activeElement).toBe(frame);
    expect(replies).toEqual(['error']);
    expect(slot.classList.contains('page-consent-frame-full')).toBe(false);
    slot.remove();
  });

  it('is granted to a ready sheet once the reader interacted', async () => {
    const { slot, replies } = await askFullscreen(true);
    expect(replies).toEqual(['success']);
    expect(slot.classList.contains('page-consent-frame-full')).toBe(true);
    slot.remove();
  });
});
