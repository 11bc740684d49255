/** page-consent-tcf-0.1.js: the full TCF CMP API and our prompts' TC strings, loaded by `<page-consent>` with `exposesTcfApi`. */
import { diagnostic } from '../wire/diagnostic.ts';
import { GPP_TCF_SERVICE, SIGNALS_SERVICE, type SignalSource, type TcfFromGpp } from '../consent/signal-source.ts';
import type { PageRuntime } from '../runtime/index.ts';
import { startTcfApi } from './tcf-api.ts';
import { startTcStrings } from './tc-string-builder.ts';

/** How long the TC string inside a GPP string waits for the GPP part. */
const GPP_PART_WAIT_MS = 8000;

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) =>
  page.whenService(SIGNALS_SERVICE).then((service) => {
    const source = service as SignalSource;
    if (!source.hasStringSource)
      source.report(
        diagnostic(
          'consent-tcf-string-source-missing',
          'a tcf object, a promptUiSrc or a checkConsentHref with exposesTcfApi',
          'none of them',
        ),
      );
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), GPP_PART_WAIT_MS));
    const fromGpp = source.hasGpp
      ? Promise.race([page.whenService(GPP_TCF_SERVICE) as Promise<TcfFromGpp>, timeout])
      : null;
    startTcfApi(source, fromGpp);
    if (source.tcf) startTcStrings(source);
  }),
);
