/** `v0/page-consent-creative-0.1.js`: the consent reply to a custom ad's creative frame. */
import { definePart } from '../../browser-shared/parts.ts';
import { replyToCreative } from '../creative-reply.ts';

definePart('page-consent-creative-0.1', { replyToCreative });
