/**
 * `v0/page-consent-stored-0.1.js`: the cached decision's parser (and its typed readers), needed
 * only when a decision is stored, that is on a return visit: the consent core requests it with
 * the return-visit part as soon as it sees the site's storage item.
 */
import { definePart } from '../../browser-shared/parts.ts';
import { parseStoredConsent } from '../../wire/consent.ts';

definePart('page-consent-stored-0.1', { parseStoredConsent });
