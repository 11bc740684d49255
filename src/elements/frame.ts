/** The sandboxed iframe shared by page-iframe and page-ad. */
import { diagnostic } from '../wire/diagnostic.ts';
import type { ContentElement } from './content-element.ts';
import { readLoadableUrl } from '../wire/url.ts';

/** The frame for an http(s) `src`; undefined (reported, nothing loaded) for any other URL. */
export function createFrame(owner: ContentElement, src: string, sandbox: string): HTMLIFrameElement | undefined {
  const url = readLoadableUrl(src, document.baseURI, owner);
  if (!url) return;
  const frame = document.createElement('iframe');
  const tokens = sandbox.split(/\s+/).filter((token) => token);
  // Only an http(s) frame of another origin keeps allow-same-origin: a same-origin one could lift its own sandbox.
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
