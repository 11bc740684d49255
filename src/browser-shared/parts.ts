/**
 * Lazily loaded parts of the CDN bundles (docs/decisions/first-screen-parts.md). A part is a
 * script next to the bundle that needs it; when it runs it puts its exports in
 * `self.PAGE_PARTS[name]` (`definePart`). `loadPart` adds the script once and resolves with those
 * exports, or with undefined after one `part-load-failed` diagnostic when the script fails,
 * registers nothing or has not run within PART_TIMEOUT_MS: the caller then keeps its safe state.
 *
 * A part's file is named after the content of its bundle's parts, `{name}.{hash}.js` (`page-runtime-actions.k3x9a.js`;
 * docs/decisions/part-names.md): `partFile` gives it from what the build gives the bundle that
 * calls it, the prefix and the one hash of the parts that bundle loads (`PART_PREFIX`, `PART_HASH`).
 */
import { type Diagnostic, diagnostic } from '../wire/diagnostic.ts';

export const PART_TIMEOUT_MS = 10_000;

const registry = () => ((self as unknown as { PAGE_PARTS?: Record<string, unknown> }).PAGE_PARTS ??= {});

/** Run by a part's entry: hands its exports to the bundles that load it. */
export function definePart(name: string, exports: unknown): void {
  registry()[name] = exports;
}

const loads = new Map<string, Promise<unknown>>();

/**
 * `{prefix}{part}.{hash}`: the file, without `.js`, of the calling bundle's part `part`
 * (`actions` in v0.js: `page-runtime-actions.k3x9a`). The parts of one bundle share their hash
 * (scripts/part-names.mjs): one define of the first screen instead of one per part.
 */
export function partFile(part: string): string {
  if (DEV && !PART_NAMES.split(',').includes(part))
    throw new Error(`part ${part} is not one this bundle was built to load`);
  return `${PART_PREFIX}${part}.${PART_HASH}`;
}

/** Adds the script at `url`; resolves with the exports registered under `name`, or with undefined after one diagnostic. */
const request = (name: string, url: string, report: (d: Diagnostic) => void) =>
  new Promise((resolve) => {
    const script = document.createElement('script');
    // Each way out (load, error, time-out) disarms the other two.
    const done = () => {
      script.onload = script.onerror = null;
      clearTimeout(timer);
      const exports = registry()[name];
      if (exports === undefined) report(diagnostic('part-load-failed', 'the part to load', script.src));
      resolve(exports);
    };
    const timer = setTimeout(done, PART_TIMEOUT_MS);
    script.onload = script.onerror = done;
    script.src = url;
    document.head.append(script);
  });

/**
 * The exports of the part in `{directory}/{file}.js`, loaded at most once per page. The part
 * registers them under its name, `file` up to its first dot (`page-runtime-actions` for
 * `page-runtime-actions.k3x9a`, the build's constants: never a property of Object.prototype, so a
 * plain lookup reads only what a part registered).
 */
export function loadPart<T>(file: string, directory: string, report: (d: Diagnostic) => void): Promise<T | undefined> {
  const name = file.split('.')[0]!;
  let load = loads.get(name);
  const registered = registry()[name];
  // A part already on the page (the inline return-visit copy registers the stored decision's parser) is not requested again.
  if (!load)
    loads.set(
      name,
      (load =
        registered === undefined
          ? request(name, new URL(`${file}.js`, directory || location.href).href, report)
          : Promise.resolve(registered)),
    );
  return load as Promise<T | undefined>;
}
