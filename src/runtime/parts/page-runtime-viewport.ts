/**
 * `v0/page-runtime-viewport.<hash>.js`: the viewport's per-frame batching and scroll tracking,
 * loaded at the first task or listener (src/runtime/lazy-viewport.ts) or change-size attempt.
 */
import { definePart } from '../../browser-shared/parts.ts';
import { report } from '../diagnostics.ts';
import { browserPlatform, createViewport } from '../viewport.ts';

const platform = browserPlatform(window);
definePart('page-runtime-viewport', { viewport: createViewport({ platform, report }), platform });
