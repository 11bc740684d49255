/**
 * page-consent-0.1.js: requests the return-visit part at once on a return visit, then defines
 * `<page-consent>` once the runtime is available. Its other parts load when the page or the
 * reader needs them (src/consent/parts.ts).
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import { createConsentElement } from './element.ts';
import { storeKeyOf } from '../browser-shared/site-store.ts';
import { loadConsentPart } from './parts.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
// Known only while this script runs: the directory the parts and the TCF and GPP bundles load from.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? document.querySelector<HTMLScriptElement>('script[custom-element="page-consent"]')?.src ?? '';
// A return visit (the site's storage item exists): the fast path's part at once, and the element
// defined once it ran (or failed), so that the first allowed script does not wait for the
// element's set-up (docs/decisions/consent-fast-path.md, "Fast path before the element").
let returning: Promise<unknown> = Promise.resolve();
try {
  if (localStorage.getItem(storeKeyOf(location.hostname)) !== null) {
    const report = (d: Diagnostic) => console.error(`[page-consent] ${d.code}: expected ${d.expected}, got ${d.got}`);
    // The consent state in parallel; the fast path's part also registers the cached decision's
    // parser, which the element reads once defined (the `stored` part only if this one failed).
    loadConsentPart('state', scriptUrl, report);
    returning = loadConsentPart('fast', scriptUrl, report);
  }
} catch {}
(scope.PAGE ||= [] as Queue).push((page) => returning.then(() => page.define('page-consent', createConsentElement(page, scriptUrl))));
