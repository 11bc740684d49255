/** `v0/page-consent-creative.<hash>.js`: the consent reply to a custom ad's creative frame. */
import { definePart } from '../../browser-shared/parts.ts';
import { replyToCreative } from '../creative-reply.ts';

definePart('page-consent-creative', { replyToCreative });
