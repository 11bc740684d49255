/**
 * `v0/page-consent-stored.<hash>.js`: the cached decision's parser (and its typed readers), needed
 * only when a decision is stored, that is on a return visit. The return-visit part
 * (`page-consent-fast.<hash>.js`) registers the same exports, so this file is requested only when
 * that part did not run.
 */
import { definePart } from '../../browser-shared/parts.ts';
import { parseStoredConsent } from '../../wire/consent.ts';

definePart('page-consent-stored', { parseStoredConsent });
