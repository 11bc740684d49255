/** `v0/page-consent-frame.<hash>.js`: the CMP iframe's prompt glue and `CONSENT_INFO`, for a `promptUiSrc` only. */
import { definePart } from '../../browser-shared/parts.ts';
import { createFrameUi } from '../frame-ui.ts';

definePart('page-consent-frame', { createFrameUi });
