/** `v0/page-auto-ads-vignette.<hash>.js`: the vignette, for a config with a `vignette` placement only. */
import { definePart } from '../../browser-shared/parts.ts';
import type { FormatPart } from '../parts.ts';
import { startVignette } from '../vignette.ts';

definePart('page-auto-ads-vignette', { start: startVignette } satisfies FormatPart);
