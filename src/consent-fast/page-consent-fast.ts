/**
 * page-consent-fast-0.1.js: the return-visit fast path, for publishers to inline right after
 * `</page-consent>`; it is also the consent extension's return-visit part, which the extension
 * requests at once when the site's storage item exists (and skips when the inline copy ran).
 * It holds the cached decision's parser, so it registers the stored-decision part as well: the
 * element then takes the parser from it instead of requesting `page-consent-stored.<hash>.js`.
 */
import { startFastPath } from '../consent/fast-path.ts';
import { definePart } from '../browser-shared/parts.ts';
import { parseStoredConsent } from '../wire/consent.ts';

definePart('page-consent-fast-0.1', startFastPath);
definePart('page-consent-stored', { parseStoredConsent });
startFastPath();
