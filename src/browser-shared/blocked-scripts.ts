/**
 * Blocked `<script type="text/plain">` elements: which ones are still waiting, the mark of one the
 * consent fast path has taken, whether one is parsed whole, and how one is run. Shared by the runtime and the fast path, which
 * runs before `v0.js` may be there.
 */
/** Set on a blocked script that the return-visit fast path (`page-consent-fast-0.1.js`) has taken to run. */
export const ACTIVATED = 'data-page-activated';
export const BLOCKED_SCRIPTS = `script[type="text/plain"][data-block-on-consent]:not([${ACTIVATED}]),script[type="text/plain"][data-block-on-consent-purposes]:not([${ACTIVATED}])`;

/**
 * Whether the parser is past `node`'s end tag, so its content (a script's text, the config) is
 * complete: parsing is over, or a node follows it or one of its ancestors.
 */
export function isParsed(node: Node): boolean {
  if (document.readyState !== 'loading') return true;
  for (let current: Node | null = node; current; current = current.parentNode) if (current.nextSibling) return true;
  return false;
}

/** Replaces `blocked` by a runnable copy; resolves once an external copy has loaded (or failed). */
export function runBlockedScript(document: Document, blocked: HTMLScriptElement): Promise<void> {
  const script = document.createElement('script');
  for (const { name, value } of blocked.attributes) script.setAttribute(name, value);
  script.type = blocked.dataset.type ?? 'text/javascript';
  script.text = blocked.text;
  const loaded = script.src
    ? new Promise<void>((resolve) => {
        script.onload = script.onerror = () => resolve();
      })
    : Promise.resolve();
  blocked.replaceWith(script);
  return loaded;
}
