/**
 * `v0/page-runtime-macros-0.1.js`: the URL macro expander with the page, client-id and consent
 * macros (src/runtime/lazy-macros.ts).
 */
import { definePart } from '../../wire/parts.ts';
import type { ConsentSource } from '../../wire/consent-macros.ts';
import { registerConsentMacros } from '../consent-macros.ts';
import { createMacros, type MacrosOptions } from '../macros.ts';

definePart('page-runtime-macros-0.1', {
  createMacros(options: MacrosOptions, consent: ConsentSource) {
    const macros = createMacros(options);
    registerConsentMacros(macros.register, consent);
    return macros;
  },
});
