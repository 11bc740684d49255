/**
 * The parts of `page-auto-ads-0.1.js`, each loaded from the script's directory only when the
 * config has such a placement: `ads-vignette` (the vignette) and `ads-side-rail` (the side rails).
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import type { startVignette } from './vignette.ts';
import { partFile } from '../browser-shared/parts.ts';

export type AutoAdsParts = {
  'ads-vignette': { startVignette: typeof startVignette };
};

/** Part `name` (`page-auto-{name}.<hash>.js`), through the runtime's loader. */
export const loadAutoAdsPart = <K extends keyof AutoAdsParts>(
  page: PageRuntime,
  name: K,
  scriptUrl: string,
  report: (d: Diagnostic) => void,
) => page.loadPart<AutoAdsParts[K]>(partFile(name), scriptUrl, report);
