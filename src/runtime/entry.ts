/**
 * v0.js: creates the runtime, defines the built-in elements and runs every extension callback
 * queued in `self.PAGE` (before or after this script loads).
 */
import { createContentElement } from '../elements/content-element.ts';
import { createPageAd } from '../elements/page-ad.ts';
import { createPageIframe } from '../elements/page-iframe.ts';
import { createPageImg } from '../elements/page-img.ts';
import { createPagePixel } from '../elements/page-pixel.ts';
import { diagnostic, report } from './diagnostics.ts';
import { createRuntime } from './runtime.ts';
import { installStyles } from './styles.ts';
import type { PageRuntime } from './types.ts';

type Callback = (page: PageRuntime) => void;
type Queue = { push(callback: Callback): void } | Callback[] | undefined;
const scope = self as unknown as { PAGE: Queue; PAGE_RUNTIME?: PageRuntime };

if (!scope.PAGE_RUNTIME) {
  const runtime = createRuntime(window);
  scope.PAGE_RUNTIME = runtime;
  installStyles(document);
  const ContentElement = createContentElement(runtime);
  runtime.define('page-img', createPageImg(ContentElement));
  runtime.define('page-pixel', createPagePixel(runtime));
  runtime.define('page-iframe', createPageIframe(ContentElement));
  runtime.define('page-ad', createPageAd(runtime, ContentElement));
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
