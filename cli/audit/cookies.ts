/**
 * Cookies written during a journey, by a response header or by a script, resolved against the
 * browser's own cookie jar (its domain and expiry, as the browser stored them): persistent or
 * session, and a deletion (an expiry in the past) told apart from a write.
 */
import type { Cookie } from 'playwright-core';
import { parseString } from 'set-cookie-parser';

export type CookieWrite = {
  readonly name: string;
  readonly domain: string;
  /** ISO time, or null for a session cookie. */
  readonly expires: string | null;
  readonly isPersistent: boolean;
  /** An expiry in the past or `Max-Age<=0`: the write removes the cookie. */
  readonly isDeletion: boolean;
};

const domainMatches = (cookieDomain: string, host: string) => {
  const domain = cookieDomain.replace(/^\./, '');
  return host === domain || host.endsWith(`.${domain}`);
};

/** The name a `Set-Cookie` line gives, '' when it gives none. */
export function cookieNameOf(line: string): string {
  const parsed = parseString(line);
  return parsed !== null && typeof parsed.name === 'string' ? parsed.name : '';
}

/** `line`: a `Set-Cookie` value or a `document.cookie` assignment; `host`: the host it applies to. Null: no cookie. */
export function resolveCookie(line: string, host: string, jar: readonly Cookie[], now: number): CookieWrite | null {
  const parsed = parseString(line);
  if (!parsed?.name) return null;
  const expiry = parsed.maxAge !== undefined ? now + parsed.maxAge * 1000 : parsed.expires?.getTime();
  const isDeletion = expiry !== undefined && (Number.isNaN(expiry) || expiry <= now);
  const stored = jar.find((cookie) => cookie.name === parsed.name && domainMatches(cookie.domain, host));
  if (stored && !isDeletion) {
    const isPersistent = stored.expires > 0;
    return {
      name: parsed.name,
      domain: stored.domain,
      expires: isPersistent ? new Date(stored.expires * 1000).toISOString() : null,
      isPersistent,
      isDeletion,
    };
  }
  const isPersistent = expiry !== undefined && !isDeletion;
  return {
    name: parsed.name,
    domain: parsed.domain ?? host,
    expires: isPersistent ? new Date(expiry).toISOString() : null,
    isPersistent,
    isDeletion,
  };
}
