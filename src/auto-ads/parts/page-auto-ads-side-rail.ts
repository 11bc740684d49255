/** `v0/page-auto-ads-side-rail.<hash>.js`: the side rails, for a config with a `sideRail` placement only. */
import { definePart } from '../../browser-shared/parts.ts';
import type { FormatPart } from '../parts.ts';
import { startSideRails } from '../side-rail.ts';

definePart('page-auto-ads-side-rail', { start: startSideRails } satisfies FormatPart);
