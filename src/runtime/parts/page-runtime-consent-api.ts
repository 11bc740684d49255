/** `v0/page-runtime-consent-api.<hash>.js`: the vendor API, loaded at the first `page.consent` call. */
import { definePart } from '../../browser-shared/parts.ts';
import { createConsentApi } from '../consent-api.ts';

definePart('page-runtime-consent-api', { createConsentApi });
