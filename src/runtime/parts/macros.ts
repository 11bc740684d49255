/**
 * `v0/page-runtime-macros-0.1.js`: the URL macro expander with the page, client-id and consent
 * macros (src/runtime/lazy-macros.ts).
 */
import { definePart } from '../../wire/parts.ts';
import { registerConsentMacros } from '../consent-macros.ts';
import { createMacros, type MacrosOptions } from '../macros.ts';
import type { ConsentSnapshot } from '../types.ts';

definePart('page-runtime-macros-0.1', {
  createMacros(options: MacrosOptions, snapshot: () => ConsentSnapshot | null) {
    const macros = createMacros(options);
    registerConsentMacros(macros.register, snapshot);
    return macros;
  },
});
