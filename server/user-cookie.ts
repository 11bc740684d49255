/**
 * The first-party user id cookie that joins a browser's checks and updates. `HttpOnly`;
 * `Secure; SameSite=None` so it travels on cross-site credentialed fetches, except on
 * loopback hosts (plain http in development), where it is `SameSite=Lax` without `Secure`.
 */
import { randomBytes } from 'node:crypto';

export const userCookieName = 'page_uid';

/** 13 months, the longest consent lifetime European regulators commonly accept. */
export const userCookieMaxAge = 395 * 24 * 60 * 60;

const userIdPattern = /^[A-Za-z0-9_-]{16,64}$/;

export function newUserId(): string {
  return randomBytes(16).toString('base64url');
}

export function readUserId(cookieHeader: string | undefined): string | null {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [name, value] = part.trim().split('=', 2);
    if (name === userCookieName && value && userIdPattern.test(value)) return value;
  }
  return null;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function serializeUserCookie(userId: string, hostname: string): string {
  const attributes = isLoopbackHost(hostname) ? ['SameSite=Lax'] : ['Secure', 'SameSite=None'];
  return [`${userCookieName}=${userId}`, 'Path=/consent', `Max-Age=${userCookieMaxAge}`, 'HttpOnly', ...attributes].join(
    '; ',
  );
}
