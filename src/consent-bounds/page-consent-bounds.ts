/**
 * page-consent-bounds.<hash>.js: the bounds check of TC and GPP strings (docs/consent.md, "Bounded consent strings"),
 * loaded by `<page-consent>` beside the TCF and GPP parts. It gives them the consent signal without a string the
 * check refuses, so none reaches an IAB decoder; one part for both keeps the check out of their bundles.
 */
import type { PageRuntime } from '../runtime/index.ts';
import { boundedSource } from '../consent/bounded-source.ts';
import { SIGNALS_SERVICE, type SignalSource, UNCHECKED_SIGNALS_SERVICE } from '../consent/signal-source.ts';

type Queue = { push(callback: (page: PageRuntime) => void): void };
const scope = self as unknown as { PAGE?: Queue };
(scope.PAGE ||= [] as Queue).push((page) =>
  page
    .whenService(UNCHECKED_SIGNALS_SERVICE)
    .then((source) => page.provideService(SIGNALS_SERVICE, boundedSource(source as SignalSource))),
);
