/**
 * Entry of `cmp/gpp-0.1.js`, loaded by the hosted prompt's second layer only when the page
 * exposes the GPP API (`clientConfig.exposesGppApi`): the GPP string that carries a TC string
 * as its `tcfeuv2` section (section 2), and the TC string of a stored GPP string, both by the
 * IAB's `@iabgpp/cmpapi` (its model only: nothing is installed on the frame's window).
 */
import { GppModel } from '@iabgpp/cmpapi';
import { checkGppString } from '../wire/consent-string-bounds.ts';
import type { GppModule } from './details-api.ts';
import { reportAll } from './report.ts';

const gpp: GppModule = {
  gppStringOf(tcString) {
    const model = new GppModel();
    model.decodeSection('tcfeuv2', tcString);
    return model.encode();
  },
  tcStringOf(gppString) {
    // A stored string the bounds check refuses (docs/consent.md, "Bounded consent strings") is none, unread.
    const refusal = checkGppString(gppString);
    if (refusal) {
      reportAll([refusal]);
      return null;
    }
    try {
      const model = new GppModel(gppString);
      return model.hasSection('tcfeuv2') ? model.encodeSection('tcfeuv2') : null;
    } catch {
      return null;
    }
  },
};
self.pageCmpGpp = gpp;
