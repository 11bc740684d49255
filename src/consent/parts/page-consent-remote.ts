/** `v0/page-consent-remote.<hash>.js`: the `checkConsentHref` check and the `onUpdateHref` notification. */
import { definePart } from '../../browser-shared/parts.ts';
import { checkConsent, checkRequestOf, notifyUpdate } from '../remote.ts';

definePart('page-consent-remote', { checkConsent, checkRequestOf, notifyUpdate });
