/**
 * URL macros: `${NAME}`, `${NAME(argument)}` and bare `NAME` / `NAME(argument)` tokens of
 * registered names are replaced by their URL-encoded values; anything else stays verbatim.
 * Parts of the runtime and extensions register more (consent info, ad consent macros).
 */
import { report as reportToConsole } from './diagnostics.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { MacroResolver, PageRuntime, StorageService } from './types.ts';

export type MacrosService = {
  register(name: string, resolver: MacroResolver): void;
  /**
   * Expands registered macros (only those in `allowed` when given) and the caller's own `extra`
   * ones, which exist for this call only (`CONSENT_INFO` in `promptUiSrc`).
   */
  expand(template: string, allowed?: readonly string[], extra?: ReadonlyMap<string, MacroResolver>): Promise<string>;
};

export type MacrosOptions = {
  readonly window: { readonly location: { readonly href: string } };
  readonly document: Document;
  readonly storage: StorageService;
  readonly report?: PageRuntime['report'];
  /** A fresh random base64url string (~16 characters) per call. */
  readonly random?: () => string;
};

const MACRO = /\$\{([A-Z][A-Z0-9_]*)(?:\((.*?)\))?\}|\b([A-Z][A-Z0-9_]*)\b(?:\(([^)]*)\))?/g;

/** 96 random bits as 16 base64url characters. */
export function randomBase64Url(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export function createMacros(options: MacrosOptions): MacrosService {
  const { window, document, storage, report = reportToConsole, random = randomBase64Url } = options;
  const resolvers = new Map<string, MacroResolver>();
  const register = (name: string, resolver: MacroResolver) => void resolvers.set(name, resolver);
  const sourceUrl = () => window.location.href.replace(/#.*/s, '');
  // Drawn on first use: a page that expands no macro never asks the random source.
  const once = (make: () => string) => {
    let value: string | undefined;
    return () => (value ??= make());
  };
  const pageViewId64 = once(random);
  const consentPageViewId64 = once(random);
  const pageViewId = once(() => String([...random()].reduce((id, char) => (id * 64 + char.charCodeAt(0)) % 1e9, 0)));

  register('CLIENT_ID', (scope) => {
    const key = `client-id:${scope || 'default'}`;
    const stored = storage.get(key);
    if (typeof stored === 'string') return stored;
    const id = random();
    storage.set(key, id);
    return id;
  });
  register('PAGE_VIEW_ID', pageViewId);
  register('PAGE_VIEW_ID_64', pageViewId64);
  register('CONSENT_PAGE_VIEW_ID_64', consentPageViewId64);
  register(
    'CANONICAL_URL',
    () => document.querySelector<HTMLLinkElement>('link[rel~=canonical][href]')?.href || sourceUrl(),
  );
  register('SOURCE_URL', sourceUrl);

  async function resolve(name: string, resolver: MacroResolver, argument: string | undefined): Promise<string> {
    try {
      return encodeURIComponent(await resolver(argument));
    } catch (error) {
      report('macros', diagnostic('macro-failed', `${name} to resolve`, String(error)));
      return '';
    }
  }

  return {
    register,
    async expand(template, allowed, extra) {
      const parts: Array<string | Promise<string>> = [];
      let end = 0;
      for (const match of template.matchAll(MACRO)) {
        const name = (match[1] ?? match[3])!;
        const resolver = extra?.get(name) ?? (allowed && !allowed.includes(name) ? undefined : resolvers.get(name));
        if (!resolver) continue;
        parts.push(
          template.slice(end, match.index),
          resolve(name, resolver, (match[2] ?? match[4])?.trim() || undefined),
        );
        end = match.index + match[0].length;
      }
      parts.push(template.slice(end));
      return (await Promise.all(parts)).join('');
    },
  };
}
