/**
 * The CMP iframe of `promptUiSrc` (docs/consent.md, "The CMP iframe"), in its own bundle `page-consent-cmp-0.1.js`
 * (loaded only by pages with a promptUiSrc). `createUi` shows the slot as the prompt; the
 * iframe is created in it each time the prompt is due (never before), sandboxed, with the client
 * info in its `name`, and removed when the prompt closes. Messages count only from that
 * iframe's window and the origin of its src (`"null"` for a same-origin src, which is sandboxed
 * without `allow-same-origin`). No `ready` within 10 s: a diagnostic and the inline prompt.
 */
import type { Diagnostic, DiagnosticLevel } from '../runtime/index.ts';
import { type CmpMessage, parseCmpMessage } from '../wire/cmp-message.ts';
import type { DecisionData } from '../wire/consent.ts';
import { LOADABLE_URL, parseLoadableUrl } from '../wire/url.ts';
import type { Json } from '../wire/values.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { Clock } from './remote.ts';
import { type ConsentModel, type Decision, purposesOf } from './state.ts';
import type { Ui } from './ui.ts';

export const READY_TIMEOUT_MS = 10_000;
const EXTRA_SANDBOX = ['allow-popups-to-escape-sandbox', 'allow-top-navigation-by-user-activation'];
const FULLSCREEN_REFUSED = 'Fullscreen is only for a bottom sheet the reader has interacted with.';
const CSS =
  '.page-consent-frame iframe{display:block;box-sizing:border-box;width:100%;height:var(--page-consent-frame-height,30vh);border:0;background:#fff}' +
  '.page-consent-frame iframe[hidden]{display:none}' +
  '.page-consent-frame-border iframe{border-top:1px solid #8889;box-shadow:0 -2px 8px #0003}' +
  '.page-consent-frame-full iframe{height:100vh}' +
  '.page-consent-placeholder{height:30vh;background:#fff;color:#555;padding:1em}' +
  '.page-consent-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}';

export type FrameOptions = {
  readonly src: string;
  readonly sandbox: string | undefined;
  readonly clientConfig: Json | undefined;
  /** The inline prompt used when the frame fails (bad URL, no `ready`). */
  readonly fallback: HTMLElement | null;
  readonly caption: string;
  readonly buttonCaption: string;
  readonly expandUrl: (template: string) => Promise<string>;
  readonly clock: Clock;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  readonly decide: (decision: Decision, data: DecisionData) => void;
};

/** Creates the frame protocol in `slot`; returns the function that follows each model. */
export type CreatePromptFrame = (slot: HTMLElement, ui: Ui, options: FrameOptions) => (model: ConsentModel) => void;

type FrameState =
  | { readonly kind: 'closed' }
  | { readonly kind: 'failed' }
  | {
      readonly kind: 'loading' | 'ready';
      readonly frame: HTMLIFrameElement;
      readonly origin: string;
      readonly isModal: boolean;
    };

const DECISIONS = { accept: 'accepted', reject: 'rejected', dismiss: 'dismissed' } as const;

/** The sandbox: scripts and popups, own origin only cross-origin, and the allowed extras. */
export function sandboxOf(extra: string | undefined, isCrossOrigin: boolean, report: FrameOptions['report']): string {
  const tokens = (extra ?? '').split(/\s+/).filter((token) => {
    const isAllowed = EXTRA_SANDBOX.includes(token);
    if (token && !isAllowed) report(diagnostic('consent-sandbox-invalid', EXTRA_SANDBOX.join(' or '), token), 'warn');
    return token && isAllowed;
  });
  return ['allow-scripts', 'allow-popups', ...(isCrossOrigin ? ['allow-same-origin'] : []), ...tokens].join(' ');
}

/** The client info JSON that the frame reads from its `name`. */
export function clientInfoOf(
  model: ConsentModel,
  clientConfig: Json | undefined,
  promptTrigger: 'load' | 'action',
): string {
  const { kind } = model.state;
  const { consentString, consentMetadata, tcfPolicyVersion } = model;
  // After an expiry the earlier choices are the prompt's starting point (docs/consent.md, "Consent lifetime").
  const purposeConsents = purposesOf(model);
  const consentStateValue = kind === 'accepted' || kind === 'rejected' ? kind : 'unknown';
  return JSON.stringify({
    clientConfig,
    consentStateValue,
    consentString,
    purposeConsents,
    consentMetadata,
    tcfPolicyVersion,
    promptTrigger,
    isDirty: false,
  });
}

export const createPromptFrame: CreatePromptFrame = (slot, ui, options) => {
  const doc = document;
  doc.head.append(Object.assign(doc.createElement('style'), { textContent: CSS }));
  let state: FrameState = { kind: 'closed' };
  let opened = 0;
  let trigger: 'load' | 'action' = 'load';
  let timer: unknown;
  let announced = false;
  let isShowing = false;
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}) =>
    Object.assign(doc.createElement(tag), props);

  const close = () => {
    isShowing = false;
    options.clock.clearTimeout(timer);
    if (state.kind !== 'failed') state = { kind: 'closed' };
    slot.replaceChildren();
    slot.classList.remove('page-consent-frame-border', 'page-consent-frame-full');
    slot.removeAttribute('aria-modal');
  };

  // `level`: the code's in src/wire/severity.ts (a refused src is an error, a time-out a warning).
  const fail = (d: Diagnostic, level?: DiagnosticLevel) => {
    options.report(d, level);
    close();
    state = { kind: 'failed' };
    isShowing = true;
    showFallback();
  };

  const showFallback = () => {
    const { fallback } = options;
    if (fallback) slot.replaceChildren(Object.assign(fallback, { hidden: false }));
    else slot.hidden = true;
    slot.focus();
  };

  const open = async (model: ConsentModel) => {
    isShowing = true;
    trigger = opened++ === 0 && model.state.kind === 'unknown' ? 'load' : 'action';
    if (state.kind === 'failed') return showFallback();
    const placeholder = element('div', { className: 'page-consent-placeholder', textContent: options.caption });
    slot.replaceChildren(placeholder);
    const href = await options.expandUrl(options.src);
    if (!placeholder.isConnected) return;
    const url = parseLoadableUrl(href, location.href);
    if (!url) return fail(diagnostic('url-refused', LOADABLE_URL, href));
    const isCross = url.origin !== location.origin;
    const frame = element('iframe', {
      name: clientInfoOf(model, options.clientConfig, trigger),
      title: options.caption,
      src: url.href,
      hidden: true,
    });
    frame.setAttribute('sandbox', sandboxOf(options.sandbox, isCross, options.report));
    state = { kind: 'loading', frame, origin: isCross ? url.origin : 'null', isModal: false };
    slot.append(frame);
    timer = options.clock.setTimeout(
      () =>
        fail(
          diagnostic('consent-prompt-frame-timeout', `a ready message within ${READY_TIMEOUT_MS / 1000} s`, url.href),
          'warn',
        ),
      READY_TIMEOUT_MS,
    );
  };

  /**
   * A bottom sheet: focus moves into the frame (the prompt itself), and a visually hidden alert
   * dialog, added once per page, names it and has a button that moves focus back into the frame
   * (for a reader who left it for the page).
   */
  const announce = (frame: HTMLIFrameElement) => {
    if (!announced) {
      const button = element('button', {
        type: 'button',
        textContent: options.buttonCaption,
        onclick: () => frame.focus(),
      });
      const alert = element('div', { className: 'page-consent-sr' });
      alert.setAttribute('role', 'alertdialog');
      alert.setAttribute('aria-label', options.caption);
      alert.append(element('h2', { textContent: options.caption }), button);
      slot.prepend(alert);
      announced = true;
    }
    frame.focus();
  };

  const ready = (
    frame: HTMLIFrameElement,
    origin: string,
    { initialHeight = 30, border }: Extract<CmpMessage, { kind: 'ready' }>,
  ) => {
    options.clock.clearTimeout(timer);
    const isModal = initialHeight > 60;
    state = { kind: 'ready', frame, origin, isModal };
    slot.querySelector('.page-consent-placeholder')?.remove();
    frame.hidden = false;
    slot.style.setProperty('--page-consent-frame-height', `${initialHeight}vh`);
    slot.classList.toggle('page-consent-frame-border', border !== false || isModal);
    if (isModal) {
      slot.setAttribute('aria-modal', 'true');
      ui.setModal(true);
      frame.focus();
    } else announce(frame);
  };

  const enterFullscreen = (frame: HTMLIFrameElement, origin: string) => {
    // The reader interacted: a click or key in the frame activates this page too (user activation);
    // focus alone is no sign, since a shown sheet takes it. Without that API, focus stands in.
    const hasInteracted = navigator.userActivation?.isActive ?? doc.activeElement === frame;
    const isAllowed = state.kind === 'ready' && !state.isModal && (hasInteracted || trigger === 'action');
    if (isAllowed) {
      slot.classList.add('page-consent-frame-full');
      ui.setModal(true);
    }
    const info = isAllowed ? 'Entering fullscreen.' : `Could not enter fullscreen. ${FULLSCREEN_REFUSED}`;
    const reply = {
      type: 'page-consent-response',
      requestType: 'consent-ui',
      requestAction: 'enter-fullscreen',
      state: isAllowed ? 'success' : 'error',
      info,
    };
    frame.contentWindow?.postMessage(reply, origin === 'null' ? '*' : origin);
  };

  const receive = (event: MessageEvent) => {
    if (state.kind !== 'loading' && state.kind !== 'ready') return;
    const { frame, origin } = state;
    if (event.source !== frame.contentWindow || event.origin !== origin) return;
    const { value, diagnostics } = parseCmpMessage(event.data);
    for (const d of diagnostics) options.report(d, 'warn');
    if (value?.kind === 'ready') ready(frame, origin, value);
    else if (value?.kind === 'enter-fullscreen') enterFullscreen(frame, origin);
    else if (value) options.decide(DECISIONS[value.action], value.data);
  };
  addEventListener('message', receive);

  return (model: ConsentModel) => {
    if (model.isPromptShown && !isShowing) open(model);
    else if (!model.isPromptShown && isShowing) close();
  };
};
