/**
 * Entry of `cmp/details-0.1.js`, the hosted prompt's second layer, loaded after the first layer
 * is painted: a session over the GVL and TC strings for an instance with `tcf` settings
 * (tcf-session.ts), over the instance's own purposes otherwise (own-session.ts). The first
 * layer starts it through `self.pageCmpDetails` (details-api.ts).
 */
import type { DetailsModule } from './details-api.ts';
import { ownSession } from './own-session.ts';
import { tcfSession } from './tcf-session.ts';

const details: DetailsModule = {
  start: async (config, info, nonce) =>
    config.tcf ? tcfSession(config, config.tcf, info, nonce) : ownSession(config, info),
};
self.pageCmpDetails = details;
