/**
 * The parts of `page-consent-0.1.js` (docs/decisions/first-screen-parts.md), each loaded from the
 * consent script's directory when the page or the reader first needs it: `remote` (the
 * publisher's check and update endpoints), `story` (`<page-story-consent>`), `frame` (the CMP
 * iframe's prompt, for a `promptUiSrc`), `geo` (the wait for `<page-geo>`), `presets` (a `type`
 * attribute), `creative` (an ad frame's consent request), `state` (the reducer, controller,
 * stored decision's parser, policy and provider, the return record's writer, with the signals for
 * ad tech: Consent Mode, `__uspapi`, the TCF/GPP stubs; after the first frame of a first visit's
 * prompt, at the first idle period of a return visit whose record was replayed, else at once;
 * docs/decisions/consent-return-record.md) and `opt-out`
 * (`consent.optOut`, at its first use; docs/us-privacy.md).
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import type { CMP_PRESETS } from '../wire/consent-presets.ts';
import type { parseConsentTiming } from '../wire/consent-config.ts';
import type { replyToCreative } from './creative-reply.ts';
import type { createFrameUi } from './frame-ui.ts';
import type { waitForGeoGroups } from './geo-wait.ts';
import type { RemoteCalls } from './remote.ts';
import type { startSignals } from './signals.ts';
import type { renderStoryPrompt } from './story.ts';
import type { createConsentState } from './consent-state.ts';
import type { optOut } from './opt-out.ts';
import { partFile } from '../browser-shared/parts.ts';

export type ConsentParts = {
  remote: RemoteCalls;
  story: { renderStoryPrompt: typeof renderStoryPrompt };
  frame: { createFrameUi: typeof createFrameUi };
  geo: { waitForGeoGroups: typeof waitForGeoGroups };
  presets: { CMP_PRESETS: typeof CMP_PRESETS };
  creative: { replyToCreative: typeof replyToCreative };
  state: {
    createConsentState: typeof createConsentState;
    parseConsentTiming: typeof parseConsentTiming;
    startSignals: typeof startSignals;
  };
  'opt-out': { optOut: typeof optOut };
};

/** Part `name` (`page-consent-{name}.<hash>.js`), through the runtime's loader (one loader per page). */
export const loadConsentPart = <K extends keyof ConsentParts>(
  page: PageRuntime,
  name: K,
  scriptUrl: string,
  report: (d: Diagnostic) => void,
) => page.loadPart<ConsentParts[K]>(partFile(name), scriptUrl, report);
