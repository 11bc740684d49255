/** The sandboxed iframe shared by page-iframe and page-ad. */
import { diagnostic } from '../runtime/diagnostics.ts';
import type { PageElement } from '../runtime/element.ts';

const COPIED = ['title', 'allow', 'referrerpolicy', 'name'];

export function createFrame(owner: PageElement, src: string, sandbox: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  const tokens = sandbox.split(/\s+/).filter(Boolean);
  const url = new URL(src, location.href);
  if (url.origin === location.origin && tokens.includes('allow-same-origin')) {
    owner.report(diagnostic('unsafe-iframe-sandbox', 'a cross-origin src with allow-same-origin', src));
    tokens.splice(tokens.indexOf('allow-same-origin'), 1);
  }
  frame.setAttribute('sandbox', tokens.join(' '));
  for (const name of COPIED) {
    const value = owner.element.getAttribute(name);
    if (value !== null) frame.setAttribute(name, value);
  }
  frame.className = 'page-fill';
  frame.src = url.href;
  return frame;
}
