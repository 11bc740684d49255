/**
 * The site store's format (docs/decisions/runtime-storage-format.md): one localStorage item
 * `page-store:{hostname}` holding base64 of UTF-8 JSON `{"version":1,"values":{...}}`. Read by the
 * runtime's storage service and, before the runtime is there, by the consent fast path.
 */
type Values = Record<string, unknown>;

export const STORE_VERSION = 1;

export const storeKeyOf = (hostname: string) => `page-store:${hostname}`;

/** The values of the stored item's text (none: `{}`); null when it is corrupt. Pure. */
export function decodeStore(text: string | null): Values | null {
  if (text === null) return {};
  try {
    // The bytes as %XX escapes, read back as UTF-8 (malformed UTF-8 throws): no TextDecoder, whose
    // first use costs a return visit about a millisecond (docs/decisions/consent-return-record.md).
    const data = JSON.parse(decodeURIComponent(escape(atob(text)))) as unknown;
    const { version, values } = (data ?? {}) as { version?: unknown; values?: unknown };
    if (version === STORE_VERSION && typeof values === 'object' && values && !Array.isArray(values))
      return values as Values;
  } catch {}
  return null;
}

/** The stored values read once, without the storage service; none when the item is corrupt or storage unreadable. */
export function readStoredValues(window: { readonly localStorage?: Storage | null }, hostname: string): Values {
  try {
    return decodeStore(window.localStorage?.getItem(storeKeyOf(hostname)) ?? null) ?? {};
  } catch {
    return {};
  }
}
