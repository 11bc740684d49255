/** `v0/page-consent-geo.<hash>.js`: the wait for `<page-geo>`'s groups, on a page with that element only. */
import { definePart } from '../../browser-shared/parts.ts';
import { waitForGeoGroups } from '../geo-wait.ts';

definePart('page-consent-geo', { waitForGeoGroups });
