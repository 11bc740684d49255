/** page-consent-fast-0.1.js: the return-visit fast path, for publishers to inline right after `</page-consent>`. */
import { startFastPath } from '../consent/fast-path.ts';

startFastPath();
