/**
 * `v0/page-consent-state.<hash>.js`: the consent state and what serves it: the reducer, the
 * controller (cache, policy timeout, remote check and update), the policy and the runtime's
 * consent provider, and the config's timing (policy timeout, lifetime). A first visit shows its prompt from the `start` model before this part
 * arrives, and requests it after the prompt's first frame; every other page requests it at once
 * (src/consent/element.ts).
 */
import { definePart } from '../../browser-shared/parts.ts';
import { createConsentState } from '../consent-state.ts';
import { parseConsentTiming } from '../../wire/consent-config.ts';

definePart('page-consent-state', { createConsentState, parseConsentTiming });
