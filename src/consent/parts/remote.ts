/** `v0/page-consent-remote-0.1.js`: the `checkConsentHref` check and the `onUpdateHref` notification. */
import { definePart } from '../../browser-shared/parts.ts';
import { checkConsent, checkRequestOf, notifyUpdate } from '../remote.ts';

definePart('page-consent-remote-0.1', { checkConsent, checkRequestOf, notifyUpdate });
