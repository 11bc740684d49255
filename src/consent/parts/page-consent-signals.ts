/** `v0/page-consent-signals.<hash>.js`: Consent Mode, `__uspapi` and the TCF/GPP stubs (src/consent/signals.ts). */
import { definePart } from '../../browser-shared/parts.ts';
import { startSignals } from '../signals.ts';

definePart('page-consent-signals', { startSignals });
