/** page-consent-gpp-0.1.js: the full GPP CMP API, loaded by `<page-consent>` with `exposesGppApi`. */
import type { PageRuntime } from '../runtime/index.ts';
import { GPP_TCF_SERVICE, SIGNALS_SERVICE, type SignalSource } from '../consent/signal-source.ts';
import { GEO_TIMEOUT_SECONDS } from '../consent/geo-wait.ts';
import { startGppApi } from './gpp-api.ts';
import type { Place } from './gpp-sections.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) => {
  // Where `<page-geo>` placed the reader, for `approach: "state"`: none without its answer in time.
  const place = () =>
    Promise.race([
      page.whenService('geo'),
      new Promise((resolve) => setTimeout(resolve, GEO_TIMEOUT_SECONDS * 1000, null)),
    ]) as Promise<Place>;
  page
    .whenService(SIGNALS_SERVICE)
    .then((source) => page.provideService(GPP_TCF_SERVICE, startGppApi(source as SignalSource, place)));
});
