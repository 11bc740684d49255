/**
 * Keeps keyboard focus inside the prompt: Tab past the last control wraps to the first (and
 * Shift+Tab back), so focus never leaves the frame for the page behind the dialog; Escape
 * calls `onEscape`.
 */
const FOCUSABLE = 'button:not([disabled]),input:not([disabled]),summary,a[href],[tabindex="0"]';

export function trapFocus(root: HTMLElement, onEscape: () => void): void {
  root.ownerDocument.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      onEscape();
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
    const first = controls[0];
    const last = controls.at(-1);
    const active = root.ownerDocument.activeElement;
    if (!first || !last) return;
    if (event.shiftKey ? active === first || active === root : active === last) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    }
  });
}
