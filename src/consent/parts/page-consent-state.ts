/**
 * `v0/page-consent-state.<hash>.js`: the consent state and what serves it: the reducer, the
 * controller (cache, policy timeout, remote check and update, the stored decision's parser), the
 * policy and the runtime's consent provider, the config's timing (policy timeout, lifetime), and
 * the signals for ad tech (src/consent/signals.ts). One request for all of them: each script a
 * page adds costs main-thread time of its own (docs/decisions/consent-return-record.md, "Sixth
 * round"). A first visit shows its prompt from the `start` model before this part arrives, and
 * requests it after the prompt's first frame; a return visit whose record was replayed, at the
 * first idle period; every other page at once (src/consent/element.ts).
 */
import { definePart } from '../../browser-shared/parts.ts';
import { createConsentState } from '../consent-state.ts';
import { startSignals } from '../signals.ts';
import { parseConsentTiming } from '../../wire/consent-config.ts';

definePart('page-consent-state', { createConsentState, parseConsentTiming, startSignals });
