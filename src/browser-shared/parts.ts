/**
 * Lazily loaded parts of the CDN bundles (docs/decisions/first-screen-parts.md). A part is a
 * script next to the bundle that needs it; when it runs it puts its exports in
 * `self.PAGE_PARTS[name]` (`definePart`). `loadPart` adds the script once and resolves with those
 * exports, or with undefined after one `part-load-failed` diagnostic when the script fails,
 * registers nothing or has not run within PART_TIMEOUT_MS: the caller then keeps its safe state.
 */
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';

export const PART_TIMEOUT_MS = 10_000;

const registry = () => ((self as unknown as { PAGE_PARTS?: Record<string, unknown> }).PAGE_PARTS ??= {});

/** Run by a part's entry: hands its exports to the bundle that loads it. */
export function definePart(name: string, exports: unknown): void {
  registry()[name] = exports;
}

const loads = new Map<string, Promise<unknown>>();

const urlOf = (name: string, directory: string) => new URL(`${name}.js`, directory || location.href).href;

/**
 * Asks the browser to fetch part `name` when it is idle, for the site's next page, unless it ran
 * on this one (docs/decisions/first-screen-parts.md, "Return visits").
 */
export const prefetchPart = (name: string, directory: string) =>
  Object.hasOwn(registry(), name) || document.head.append(Object.assign(document.createElement('link'), { rel: 'prefetch', href: urlOf(name, directory) }));

/** The exports of part `name` (`{directory}/{name}.js`), loaded at most once per page. */
export function loadPart<T>(name: string, directory: string, report: (d: Diagnostic) => void): Promise<T | undefined> {
  let load = loads.get(name);
  // A part already on the page (the inline return-visit copy) is not requested again.
  if (!load && Object.hasOwn(registry(), name)) loads.set(name, (load = Promise.resolve(registry()[name])));
  if (!load) {
    const script = document.createElement('script');
    script.src = urlOf(name, directory);
    load = new Promise((resolve) => {
      const done = () => {
        if (!script.onload) return;
        script.onload = script.onerror = null;
        clearTimeout(timer);
        const exports = Object.hasOwn(registry(), name) ? registry()[name] : undefined;
        if (exports === undefined) report(diagnostic('part-load-failed', 'the part to load', script.src));
        resolve(exports);
      };
      const timer = setTimeout(done, PART_TIMEOUT_MS);
      script.onload = script.onerror = done;
    });
    document.head.append(script);
    loads.set(name, load);
  }
  return load as Promise<T | undefined>;
}
