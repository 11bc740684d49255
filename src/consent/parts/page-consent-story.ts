/** `v0/page-consent-story.<hash>.js`: the `<page-story-consent>` prompt. */
import { definePart } from '../../browser-shared/parts.ts';
import { renderStoryPrompt } from '../story.ts';

definePart('page-consent-story', { renderStoryPrompt });
