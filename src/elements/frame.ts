/** The sandboxed iframe shared by page-iframe and page-ad. */
import { diagnostic } from '../runtime/diagnostics.ts';
import type { ContentElement } from './content-element.ts';

export function createFrame(owner: ContentElement, src: string, sandbox: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  const tokens = sandbox.split(/\s+/).filter((token) => token);
  const url = new URL(src, location.href);
  if (url.origin === location.origin && tokens.includes('allow-same-origin')) {
    // Only a publisher's own `sandbox` is a mistake; page-ad's default is silently narrowed.
    if (owner.element.hasAttribute('sandbox')) {
      owner.report(diagnostic('unsafe-iframe-sandbox', 'a cross-origin src with allow-same-origin', src));
    }
    tokens.splice(tokens.indexOf('allow-same-origin'), 1);
  }
  frame.setAttribute('sandbox', tokens.join(' '));
  owner.copyAttributes(frame, ['title', 'allow', 'referrerpolicy', 'name']);
  frame.src = url.href;
  return frame;
}
