/**
 * `v0/page-runtime-macros.<hash>.js`: the URL macro expander with the page, client-id and consent
 * macros (src/runtime/lazy-macros.ts).
 */
import { definePart } from '../../browser-shared/parts.ts';
import type { ConsentSource } from '../../browser-shared/consent-macros.ts';
import { registerConsentMacros } from '../consent-macros.ts';
import { createMacros, type MacrosOptions } from '../macros.ts';

definePart('page-runtime-macros', {
  createMacros(options: MacrosOptions, consent: ConsentSource) {
    const macros = createMacros(options);
    registerConsentMacros(macros.register, consent);
    return macros;
  },
});
