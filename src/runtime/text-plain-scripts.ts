/**
 * `<script type="text/plain" data-block-on-consent...>`: replaced by a runnable copy, once, when
 * the consent gate opens for it. Scripts that open together run in document order; an external
 * script finishes loading before the next one runs.
 */
import type { ConsentGate } from './consent-gate.ts';
import { readBlockRequest } from '../wire/block-markers.ts';
import { BLOCKED_SCRIPTS, runBlockedScript } from '../browser-shared/blocked-scripts.ts';
import { readLoadableUrl } from '../wire/url.ts';
import type { Diagnostic } from '../wire/diagnostic.ts';

type Options = {
  readonly document: Document;
  readonly gate: ConsentGate;
  readonly metaBlockedTags: () => ReadonlySet<string>;
  readonly report: (source: Element, d: Diagnostic) => void;
};

export function activateScripts({ document, gate, metaBlockedTags, report }: Options): void {
  const done = new WeakSet<Element>();
  const requests = new WeakMap<Element, ReturnType<typeof readBlockRequest>>();
  let chain = Promise.resolve();
  const scan = () => {
    for (const blocked of document.querySelectorAll<HTMLScriptElement>(BLOCKED_SCRIPTS)) {
      if (done.has(blocked)) continue;
      if (!requests.has(blocked)) {
        requests.set(
          blocked,
          readBlockRequest(blocked, metaBlockedTags(), (d) => report(blocked, d)),
        );
      }
      const request = requests.get(blocked);
      if (!request || gate.decide(request) !== 'allow') continue;
      done.add(blocked);
      // The URL rule (docs/runtime.md, "The URL rule"): a `src` that is not http(s) or relative is never run.
      const src = blocked.getAttribute('src');
      if (src === null || readLoadableUrl(src, document.baseURI, { report: (d) => report(blocked, d) }))
        chain = chain.then(() => runBlockedScript(document, blocked));
    }
  };
  gate.subscribe(scan);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan, { once: true });
  else scan();
}
