/**
 * Prompt and post-prompt display (docs/consent.md, "UI"): one UI at a time,
 * `display:none` until shown, the standard `hidden` attribute removed while shown (the markup
 * writes it, so nothing is painted before the runtime runs), fixed to the bottom (overridable by the page's CSS), the prompt
 * as a dialog that takes focus and gives it back, and an optional overlay that blocks
 * interaction and scrolling beneath.
 */
import { type ConsentModel, isRequiredOf } from './state.ts';

const CSS =
  'page-consent>*,.page-consent-ui{display:none!important}' +
  '.page-consent-shown{display:block!important}' +
  'page-consent{position:fixed;bottom:0;left:0;right:0;z-index:2147483645;max-height:100vh;overflow:auto}' +
  '.page-consent-overlay{position:fixed;inset:0;z-index:2147483644;background:#0004}' +
  '.page-consent-locked,.page-consent-locked body{overflow:hidden!important}';

export type UiChoice = 'prompt' | 'post' | null;

/**
 * Shows the UI the model calls for; `hasPrompt` is false without a prompt UI; `setModal` turns the
 * overlay on or off while the prompt is shown (a CMP iframe asks for it once it is ready).
 */
export type Ui = ((model: ConsentModel) => void) & {
  readonly hasPrompt: boolean;
  readonly setModal: (isModal: boolean) => void;
};

/** The prompt while it is due; else the post-prompt once consent is required or decided. */
export function selectUi(model: ConsentModel, hasPrompt: boolean, hasPost: boolean): UiChoice {
  if (model.isPromptShown && hasPrompt) return 'prompt';
  return hasPost && isRequiredOf(model.state) ? 'post' : null;
}

export type UiOptions = {
  readonly prompt: HTMLElement | null;
  readonly post: HTMLElement | null;
  readonly overlay: boolean;
  readonly caption: string;
};

/** Installs the styles; returns the function that shows one UI (or none) for a model. */
export function createUi(host: HTMLElement, { prompt, post, overlay, caption }: UiOptions): Ui {
  const doc = host.ownerDocument;
  const locked = doc.documentElement.classList;
  doc.head.append(Object.assign(doc.createElement('style'), { textContent: CSS }));
  post?.classList.add('page-consent-ui');
  let shown: UiChoice = null;
  let returnFocus: Element | null = null;
  let mask: HTMLElement | undefined;
  let inert: HTMLElement[] = [];
  const setShown = (choice: UiChoice, isShown: boolean) => {
    const ui = choice === 'prompt' ? prompt : choice && post;
    if (!ui) return;
    ui.hidden = !ui.classList.toggle('page-consent-shown', isShown);
    if (host.contains(ui)) host.classList.toggle('page-consent-shown', isShown);
  };
  /** The overlay: a mask, the rest of the page inert, no scrolling. */
  const setModal = (isModal: boolean) => {
    if (isModal === locked.contains('page-consent-locked')) return;
    const { body } = doc;
    if (isModal) {
      inert = [...body.children].filter(
        (child): child is HTMLElement => !child.contains(host) && !(child as HTMLElement).inert,
      );
      mask = body.appendChild(Object.assign(doc.createElement('div'), { className: 'page-consent-overlay' }));
    } else mask?.remove();
    for (const child of inert) child.inert = isModal;
    locked.toggle('page-consent-locked', isModal);
  };
  const openPrompt = (ui: HTMLElement) => {
    const setDefault = (name: string, value: string) => ui.hasAttribute(name) || ui.setAttribute(name, value);
    setDefault('role', 'dialog');
    if (!ui.hasAttribute('aria-labelledby')) setDefault('aria-label', caption);
    setDefault('tabindex', '-1');
    if (overlay) {
      ui.setAttribute('aria-modal', 'true');
      setModal(true);
    }
    // The prompt is fixed in view: no scrolling, so focusing it needs no layout of the page.
    ui.focus({ preventScroll: true });
  };
  const render = (model: ConsentModel) => {
    const next = selectUi(model, !!prompt, !!post);
    const previous = shown;
    if (next === previous) return;
    if (next === 'prompt') returnFocus = doc.activeElement;
    setShown(previous, false);
    setShown((shown = next), true);
    if (previous === 'prompt') {
      setModal(false);
      // Focus leaves the hidden prompt at once, not at the browser's next style update: when it
      // came from the page itself (nothing focusable had it), there is nowhere to give it back to.
      const active = doc.activeElement as HTMLElement;
      if (prompt!.contains(active)) active.blur();
      (returnFocus as HTMLElement | null)?.focus?.();
    }
    if (next === 'prompt') openPrompt(prompt!);
  };
  return Object.assign(render, { hasPrompt: !!prompt, setModal });
}
