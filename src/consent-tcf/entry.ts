/** page-consent-tcf-0.1.js: the full TCF CMP API and our prompts' TC strings, loaded by `<page-consent>` with `exposesTcfApi`. */
import type { PageRuntime } from '../runtime/index.ts';
import { SIGNALS_SERVICE, type SignalSource } from '../consent/signal-source.ts';
import { startTcfApi } from './tcf-api.ts';
import { startTcStrings } from './tc-string-builder.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) =>
  page.whenService(SIGNALS_SERVICE).then((service) => {
    const source = service as SignalSource;
    startTcfApi(source);
    if (source.tcf) startTcStrings(source);
  }),
);
