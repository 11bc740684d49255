/**
 * Prompt and post-prompt display (seed "UI visibility rules", PRODUCT 3.6): one UI at a time,
 * `display:none` until shown, fixed to the bottom (overridable by the page's CSS), the prompt
 * as a dialog that takes focus and gives it back, and an optional overlay that blocks
 * interaction and scrolling beneath.
 */
import type { ConsentModel } from './state.ts';

const CSS =
  'page-consent>*,.page-consent-ui{display:none!important}' +
  '.page-consent-shown{display:block!important}' +
  'page-consent.page-consent-shown{position:fixed;bottom:0;left:0;right:0;z-index:2147483645;max-height:100vh;overflow:auto}' +
  '.page-consent-overlay{position:fixed;inset:0;z-index:2147483644;background:#0004}' +
  '.page-consent-locked,.page-consent-locked body{overflow:hidden!important}';

export type UiChoice = 'prompt' | 'post' | null;

/** Shows the UI the model calls for; `hasPrompt` is false without a prompt UI. */
export type Ui = ((model: ConsentModel) => void) & { readonly hasPrompt: boolean };

/** The prompt while it is due; else the post-prompt once consent is required or decided. */
export function selectUi(model: ConsentModel, hasPrompt: boolean, hasPost: boolean): UiChoice {
  if (model.isPromptShown && hasPrompt) return 'prompt';
  const { kind } = model.state;
  return hasPost && (kind === 'accepted' || kind === 'rejected' || kind === 'dismissed' || kind === 'unknown') ? 'post' : null;
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
  const root = doc.documentElement;
  doc.head.append(Object.assign(doc.createElement('style'), { textContent: CSS }));
  post?.classList.add('page-consent-ui');
  let shown: UiChoice = null;
  let returnFocus: Element | null = null;
  let mask: HTMLElement | null = null;
  let inert: HTMLElement[] = [];
  const setShown = (ui: HTMLElement, isShown: boolean) => {
    ui.classList.toggle('page-consent-shown', isShown);
    if (host.contains(ui)) host.classList.toggle('page-consent-shown', isShown);
  };
  const openPrompt = (ui: HTMLElement) => {
    const setDefault = (name: string, value: string) => ui.hasAttribute(name) || ui.setAttribute(name, value);
    setDefault('role', 'dialog');
    if (!ui.hasAttribute('aria-labelledby')) setDefault('aria-label', caption);
    setDefault('tabindex', '-1');
    if (overlay) {
      ui.setAttribute('aria-modal', 'true');
      mask = doc.body.appendChild(doc.createElement('div'));
      mask.className = 'page-consent-overlay';
      inert = [...doc.body.children].filter((child): child is HTMLElement => !child.contains(host) && child !== mask && !(child as HTMLElement).inert);
      for (const child of inert) child.inert = true;
      root.classList.add('page-consent-locked');
    }
    ui.focus();
  };
  const closePrompt = () => {
    mask?.remove();
    for (const child of inert) child.inert = false;
    root.classList.remove('page-consent-locked');
    (returnFocus as HTMLElement | null)?.focus?.();
  };
  const render = (model: ConsentModel) => {
    const next = selectUi(model, !!prompt, !!post);
    if (next === shown) return;
    const [previous, coming] = [shown, next].map((choice) => (choice === 'prompt' ? prompt : choice && post));
    const wasPrompt = shown === 'prompt';
    if (next === 'prompt') returnFocus = doc.activeElement;
    if (previous) setShown(previous, false);
    shown = next;
    if (coming) setShown(coming, true);
    if (wasPrompt) closePrompt();
    if (next === 'prompt' && coming) openPrompt(coming);
  };
  return Object.assign(render, { hasPrompt: !!prompt });
}
