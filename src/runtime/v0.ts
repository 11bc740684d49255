/**
 * v0.js: creates the runtime (its lazily loaded parts come from `v0/` next to this script),
 * defines the built-in elements and runs every extension callback queued in `self.PAGE`
 * (before or after this script loads).
 */
import { report } from './diagnostics.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { createRuntime } from './runtime.ts';
import type { PageRuntime } from './types.ts';

type Callback = (page: PageRuntime) => void;
type Queue = { push(callback: Callback): void } | Callback[] | undefined;
const scope = self as unknown as { PAGE: Queue; PAGE_RUNTIME?: PageRuntime };

if (!scope.PAGE_RUNTIME) {
  // Known only while this script runs; `v0/` beside it holds the parts.
  const src =
    (document.currentScript as HTMLScriptElement | null)?.src ||
    document.querySelector<HTMLScriptElement>('script[src$="/v0.js"]')?.src ||
    location.href;
  const runtime = createRuntime(window, new URL('v0/', src).href);
  scope.PAGE_RUNTIME = runtime;
  const run = (callback: Callback) => {
    try {
      callback(runtime);
    } catch (error) {
      report('page-runtime', diagnostic('extension-failed', 'no exception', String(error)));
    }
  };
  const queued = Array.isArray(scope.PAGE) ? scope.PAGE : [];
  scope.PAGE = { push: run };
  queued.forEach(run);
}
