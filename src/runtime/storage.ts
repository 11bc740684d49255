/**
 * Site storage: one localStorage item `page-store:{hostname}` holding base64 of UTF-8 JSON
 * `{"version":1,"values":{...}}`. Writes read the latest item first, so keys written by other
 * tabs survive. When localStorage is missing or throws, an in-memory store serves the rest of
 * the page view (one `storage-unavailable` warning). A corrupt item reads as empty
 * (`storage-corrupt`) and is left in place until the first write replaces it.
 */
import { decodeStore, STORE_VERSION, storeKeyOf } from '../browser-shared/site-store.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { PageRuntime, StorageService } from './types.ts';

export type StorageOptions = {
  /** The page's window, or any object with a `localStorage` (which may be missing or throw). */
  readonly window: { readonly localStorage?: Storage | null };
  readonly hostname: string;
  readonly report: PageRuntime['report'];
};

type Values = Record<string, unknown>;

const SOURCE = 'page-store';

export function createStorage({ window, hostname, report }: StorageOptions): StorageService {
  const key = storeKeyOf(hostname);
  let cache: Values | undefined;
  let isPersistent = true;
  let isCorruptionReported = false;

  /** Runs a task on localStorage; on the first failure switches to memory and warns once. */
  function attempt<T>(task: (local: Storage) => T): T | undefined {
    if (!isPersistent) return undefined;
    let got: unknown;
    try {
      const local = window.localStorage;
      if (local) return task(local);
    } catch (error) {
      got = (error as { name?: unknown } | null)?.name ?? error;
    }
    isPersistent = false;
    report(
      SOURCE,
      diagnostic('storage-unavailable', 'persistent localStorage (choices last this page view only)', got),
      'warn',
    );
  }

  function decode(text: string | null): Values {
    const values = decodeStore(text);
    if (values) return values;
    if (!isCorruptionReported)
      report(SOURCE, diagnostic('storage-corrupt', `base64 JSON with "version": ${STORE_VERSION}`, text), 'warn');
    isCorruptionReported = true;
    return {};
  }

  /** The latest stored values, or the in-memory ones once storage failed. */
  function load(): Values {
    const text = attempt((local) => local.getItem(key));
    if (isPersistent) cache = decode(text ?? null);
    return (cache ??= {});
  }

  function write(update: (values: Values) => void): void {
    const values = { ...load() };
    update(values);
    cache = values;
    const json = JSON.stringify({ version: STORE_VERSION, values });
    // UTF-8 bytes as one character each (JSON.stringify writes no lone surrogate, so nothing throws).
    attempt((local) => local.setItem(key, btoa(unescape(encodeURIComponent(json)))));
  }

  return {
    get: (name) => {
      const values = cache ?? load();
      return Object.hasOwn(values, name) ? values[name] : undefined;
    },
    set: (name, value) => write((values) => void (values[name] = value)),
    remove: (name) => write((values) => void delete values[name]),
    get isPersistent() {
      if (!cache) load();
      return isPersistent;
    },
  };
}
