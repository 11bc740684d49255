/**
 * Site storage: one localStorage item `page-store:{hostname}` holding base64 of UTF-8 JSON
 * `{"version":1,"values":{...}}`. Writes read the latest item first, so keys written by other
 * tabs survive. When localStorage is missing or throws, an in-memory store serves the rest of
 * the page view (one `storage-unavailable` warning). A corrupt item reads as empty
 * (`storage-corrupt`) and is left in place until the first write replaces it.
 */
import { diagnostic } from './diagnostics.ts';
import type { PageRuntime, StorageService } from './types.ts';

export type StorageOptions = {
  /** The page's window, or any object with a `localStorage` (which may be missing or throw). */
  readonly window: { readonly localStorage?: Storage | null };
  readonly hostname: string;
  readonly report: PageRuntime['report'];
};

type Values = Record<string, unknown>;

const VERSION = 1;
const SOURCE = 'page-store';

/** The values of the stored item's text (none: `{}`); null when it is corrupt. Pure. */
function decodeStore(text: string | null): Values | null {
  if (text === null) return {};
  try {
    const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
    const data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
    const { version, values } = (data ?? {}) as { version?: unknown; values?: unknown };
    if (version === VERSION && typeof values === 'object' && values && !Array.isArray(values)) return values as Values;
  } catch {}
  return null;
}

/** One stored value read once, without a service (the consent fast path); undefined when unreadable. */
export function readStoredValue(window: StorageOptions['window'], hostname: string, name: string): unknown {
  try {
    const values = decodeStore(window.localStorage?.getItem(`page-store:${hostname}`) ?? null);
    return values && Object.hasOwn(values, name) ? values[name] : undefined;
  } catch {}
}

export function createStorage({ window, hostname, report }: StorageOptions): StorageService {
  const key = `page-store:${hostname}`;
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
    report(SOURCE, diagnostic('storage-unavailable', 'persistent localStorage (choices last this page view only)', got), 'warn');
  }

  function decode(text: string | null): Values {
    const values = decodeStore(text);
    if (values) return values;
    if (!isCorruptionReported) report(SOURCE, diagnostic('storage-corrupt', `base64 JSON with "version": ${VERSION}`, text), 'warn');
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
    const json = JSON.stringify({ version: VERSION, values });
    attempt((local) => local.setItem(key, btoa(Array.from(new TextEncoder().encode(json), (byte) => String.fromCharCode(byte)).join(''))));
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
