/** `v0/page-consent-presets.<hash>.js`: the CMP presets a `type` attribute names. */
import { CMP_PRESETS } from '../../wire/consent-presets.ts';
import { definePart } from '../../browser-shared/parts.ts';

definePart('page-consent-presets', { CMP_PRESETS });
