/** `v0/page-runtime-actions.<hash>.js`: the action parser and runner (src/runtime/lazy-actions.ts). */
import { definePart } from '../../browser-shared/parts.ts';
import { createActions } from '../actions.ts';

definePart('page-runtime-actions', { createActions });
