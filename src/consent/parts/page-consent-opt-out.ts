/** `v0/page-consent-opt-out.<hash>.js`: `consent.optOut`, loaded at its first use (src/consent/opt-out.ts). */
import { definePart } from '../../browser-shared/parts.ts';
import { optOut } from '../opt-out.ts';

definePart('page-consent-opt-out', { optOut });
