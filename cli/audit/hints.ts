/**
 * The fix for a finding, from the tag on the page that caused it: block one of our elements
 * with `data-block-on-consent` (or list its kind in the meta tag), move a script into a blocked
 * `text/plain` script, replace a plain image or frame by the blockable element, or (for a host
 * the site truly needs before any choice) list it with `--allow`.
 */
import type { Initiator, Phase } from './report.ts';

const BLOCKED_SCRIPT = '<script type="text/plain" data-block-on-consent';

export function hintFor(initiator: Initiator, phase: Phase, builtTag: string | null): string {
  const { kind, url } = initiator.tag;
  const after = phase === 'after' ? 'It runs after a reject: ' : '';
  switch (kind) {
    case 'element':
      return `${after}mark <${builtTag ?? 'page-img'} src="${url}"> data-block-on-consent (the default policy waits for an accept), or list ${builtTag ?? 'its element'} in <meta name="page-consent-blocking">.`;
    case 'script':
      return `${after}move <script src="${url}"> into a blocked script: ${BLOCKED_SCRIPT} src="${url}"></script>.`;
    case 'inline-script':
      return `${after}the page's inline script does it: move that code into ${BLOCKED_SCRIPT}>...</script>, or make it wait for page.consent.getPolicyState() to be "sufficient".`;
    case 'image':
      return `${after}replace <img src="${url}"> with <page-img src="${url}" data-block-on-consent> (or <page-pixel> for a pixel).`;
    case 'frame':
      return `${after}replace <iframe src="${url}"> with <page-iframe src="${url}" data-block-on-consent>.`;
    default:
      return `${after}load ${url ?? 'it'} only from a blocked ${BLOCKED_SCRIPT}> script, or pass --allow with its host if the page cannot work without it.`;
  }
}
