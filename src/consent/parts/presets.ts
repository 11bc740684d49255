/** `v0/page-consent-presets-0.1.js`: the CMP presets a `type` attribute names. */
import { CMP_PRESETS } from '../../wire/consent-presets.ts';
import { definePart } from '../../browser-shared/parts.ts';

definePart('page-consent-presets-0.1', { CMP_PRESETS });
