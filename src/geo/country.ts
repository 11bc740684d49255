/**
 * Where `<page-geo>` reads the country and subdivision (docs/geo.md), in order: the debug hash
 * `#page-geo=xx` or `#page-geo=xx-yy` (loopback hosts, or an element with
 * `data-allow-debug-override`), the place the server patched into the script, else `unknown`.
 * Pure: whether the subdivision is a known one is checked by the element.
 */
import { subdivisionPattern } from '../wire/geo-subdivisions.ts';
import { isLoopbackHost } from '../wire/url.ts';

export type CountrySources = {
  readonly hash: string;
  readonly hostname: string;
  readonly allowDebug: boolean;
  /** The patched placeholder: a lowercase `xx`, `xx-yyy` or `unknown`; unpatched it is none of these. */
  readonly patched: string;
};

/** `xx` or `xx-yyy` as the country and the subdivision code (`unknown` when absent); anything else as unknown. */
const placeOf = (code: string | undefined) =>
  code && code !== 'unknown'
    ? { country: code.slice(0, 2), subdivision: code.length > 2 ? code : 'unknown' }
    : { country: 'unknown', subdivision: 'unknown' };

/** The country, the subdivision code as given (`unknown` when none) and whether a debug hash was present but not honoured. */
export function countryOf({ hash, hostname, allowDebug, patched }: CountrySources) {
  const debug = /page-geo=([a-z]{2}(-[a-z0-9]{1,3})?|unknown)(?![\w-])/i.exec(hash)?.[1]?.toLowerCase();
  const isDebugAllowed = allowDebug || isLoopbackHost(hostname);
  if (debug && isDebugAllowed) return { ...placeOf(debug), isDebugIgnored: false };
  const isPlace = /^[a-z]{2}$/.test(patched) || subdivisionPattern.test(patched);
  return { ...placeOf(isPlace ? patched : undefined), isDebugIgnored: !!debug };
}
