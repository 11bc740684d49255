/** page-consent-gpp-0.1.js: the full GPP CMP API, loaded by `<page-consent>` with `exposesGppApi`. */
import type { PageRuntime } from '../runtime/index.ts';
import { GPP_TCF_SERVICE, SIGNALS_SERVICE, type SignalSource } from '../consent/signal-source.ts';
import { startGppApi } from './gpp-api.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) =>
  page
    .whenService(SIGNALS_SERVICE)
    .then((source) => page.provideService(GPP_TCF_SERVICE, startGppApi(source as SignalSource))),
);
