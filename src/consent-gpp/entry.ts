/** page-consent-gpp-0.1.js: the full GPP CMP API, loaded by `<page-consent>` with `exposesGppApi`. */
import type { PageRuntime } from '../runtime/index.ts';
import { boundedSource, refusalsOf } from '../consent/bounded-source.ts';
import { GPP_TCF_SERVICE, SIGNALS_SERVICE, type SignalSource } from '../consent/signal-source.ts';
import { checkGppString, checkTcString } from '../wire/consent-string-bounds.ts';
import { startGppApi } from './gpp-api.ts';
import { gppStringOf, tcStringOf } from './gpp-sections.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) =>
  page.whenService(SIGNALS_SERVICE).then((service) => {
    const source = service as SignalSource;
    // A refused GPP string is none, here and for the TCF part; a refused TC string too (the TCF part reports it).
    const isGppRefused = refusalsOf(checkGppString, source.report);
    const isTcRefused = refusalsOf(checkTcString);
    const channel = startGppApi(boundedSource(source, (signal) => isGppRefused(gppStringOf(signal)) || (source.hasTcf && isTcRefused(tcStringOf(signal)))));
    page.provideService(GPP_TCF_SERVICE, { ...channel, tcStringOf: (gppString: string) => (isGppRefused(gppString) ? null : channel.tcStringOf(gppString)) });
  }),
);
