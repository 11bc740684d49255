/** `v0/page-runtime-change-size.<hash>.js`: the change-size arbiter, loaded at the first `attemptChangeSize`. */
import { definePart } from '../../browser-shared/parts.ts';
import { createChangeSize } from '../change-size.ts';

definePart('page-runtime-change-size', { createChangeSize });
