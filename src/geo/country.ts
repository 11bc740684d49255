/**
 * Where `<page-geo>` reads the country (docs/geo.md), in order: the debug hash `#page-geo=xx`
 * (loopback hosts, or an element with `data-allow-debug-override`), the country the server
 * patched into the script, else `unknown`. Pure.
 */
import { isLoopbackHost } from '../wire/url.ts';

export type CountrySources = {
  readonly hash: string;
  readonly hostname: string;
  readonly allowDebug: boolean;
  /** The patched placeholder: a lowercase code or `unknown`; unpatched it is not a code. */
  readonly patched: string;
};

/** The country code and whether a debug hash was present but not honoured. */
export function countryOf({ hash, hostname, allowDebug, patched }: CountrySources) {
  const debug = /page-geo=([a-z]{2}|unknown)\b/i.exec(hash)?.[1]?.toLowerCase();
  const isDebugAllowed = allowDebug || isLoopbackHost(hostname);
  if (debug && isDebugAllowed) return { country: debug, isDebugIgnored: false };
  return { country: /^[a-z]{2}$/.test(patched) ? patched : 'unknown', isDebugIgnored: !!debug };
}
