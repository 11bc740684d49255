/**
 * URL macros as the runtime core ships them: registrations are kept, and the macros part
 * (`v0/page-runtime-macros.<hash>.js`: the page, client-id and consent macros and the expander) is
 * requested at the first template that can hold a macro (one with a capital letter). Without
 * the part (one diagnostic) a template stays verbatim, as unknown macros do.
 */
import type { MacrosOptions, MacrosService } from './macros.ts';
import type { ConsentSource } from '../browser-shared/consent-macros.ts';
import type { MacroResolver } from './types.ts';

export type MacrosPart = { createMacros(options: MacrosOptions, consent: ConsentSource): MacrosService };

export function createLazyMacros(
  options: MacrosOptions,
  consent: ConsentSource,
  load: () => Promise<MacrosPart | undefined>,
): MacrosService {
  const registered = new Map<string, MacroResolver>();
  let service: Promise<MacrosService | undefined> | undefined;
  const ready = () =>
    (service ??= load().then((part) => {
      const macros = part?.createMacros(options, consent);
      for (const [name, resolver] of registered) macros?.register(name, resolver);
      return macros;
    }));
  return {
    register(name, resolver) {
      registered.set(name, resolver);
      service?.then((macros) => macros?.register(name, resolver));
    },
    async expand(template, allowed, extra) {
      if (!/[A-Z]/.test(template)) return template;
      return (await ready())?.expand(template, allowed, extra) ?? template;
    },
  };
}
