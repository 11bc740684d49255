/**
 * The parts of `page-consent-0.1.js` (docs/decisions/first-screen-parts.md), each loaded from the
 * consent script's directory when the page or the reader first needs it: `remote` (the
 * publisher's check and update endpoints), `signals` (Consent Mode, `__uspapi`, the TCF/GPP
 * stubs), `story` (`<page-story-consent>`), `frame` (the CMP iframe's prompt, for a `promptUiSrc`), `geo` (the wait for
 * `<page-geo>`), `presets` (a `type` attribute), `creative` (an ad
 * frame's consent request), `fast` (the return visit, requested at once when the site's storage
 * item exists; it also registers `stored`), `stored` (the cached decision's parser, requested
 * only when `fast` did not run), and `state` (the
 * reducer, controller, policy and provider: after the first frame of a first visit's prompt,
 * else at once).
 */
import type { Diagnostic } from '../runtime/index.ts';
import type { parseStoredConsent } from '../wire/consent.ts';
import type { CMP_PRESETS } from '../wire/consent-presets.ts';
import type { parseConsentTiming } from '../wire/consent-config.ts';
import { loadPart, prefetchPart } from '../browser-shared/parts.ts';
import type { replyToCreative } from './creative-reply.ts';
import type { createFrameUi } from './frame-ui.ts';
import type { waitForGeoGroups } from './geo-wait.ts';
import type { checkConsent, checkRequestOf, notifyUpdate } from './remote.ts';
import type { startSignals } from './signals.ts';
import type { renderStoryPrompt } from './story.ts';
import type { createConsentState } from './consent-state.ts';

export type RemoteCalls = { checkConsent: typeof checkConsent; checkRequestOf: typeof checkRequestOf; notifyUpdate: typeof notifyUpdate };

export type ConsentParts = {
  remote: RemoteCalls;
  signals: { startSignals: typeof startSignals };
  story: { renderStoryPrompt: typeof renderStoryPrompt };
  frame: { createFrameUi: typeof createFrameUi };
  geo: { waitForGeoGroups: typeof waitForGeoGroups };
  presets: { CMP_PRESETS: typeof CMP_PRESETS };
  creative: { replyToCreative: typeof replyToCreative };
  fast: () => void;
  stored: { parseStoredConsent: typeof parseStoredConsent };
  state: { createConsentState: typeof createConsentState; parseConsentTiming: typeof parseConsentTiming };
};

export const loadConsentPart = <K extends keyof ConsentParts>(name: K, scriptUrl: string, report: (d: Diagnostic) => void) =>
  loadPart<ConsentParts[K]>(`page-consent-${name}-0.1`, scriptUrl, report);

/**
 * The part that a return visit requests at once (`fast`, which also registers `stored`): asked
 * for ahead, when the browser is idle, by a page that stores a decision without having run it,
 * so that the site's next page finds it in the browser's cache.
 */
export const prefetchReturnPart = (scriptUrl: string) => prefetchPart('page-consent-fast-0.1', scriptUrl);
