/**
 * page-consent-fast-0.1.js: the return-visit fast path, for publishers to inline right after
 * `</page-consent>` (docs/consent.md, "Return visits"). It starts what the stored decision
 * allows while the page is parsed; the consent element then does the rest as on any visit.
 */
import { startFastPath } from '../consent/fast-path.ts';
import { definePart } from '../browser-shared/parts.ts';

definePart('page-consent-fast-0.1', startFastPath);
startFastPath();
