/**
 * The first-party user id cookie that joins a browser's checks and updates. `HttpOnly`;
 * `Secure; SameSite=None` so it travels on cross-site credentialed fetches, except on
 * loopback hosts (plain http in development), where it is `SameSite=Lax` without `Secure`.
 */
import { randomFillSync } from 'node:crypto';
import { hostOf, isLoopbackHost } from '../src/wire/url.ts';
import { timePrefix } from './ordered-id.ts';

export const userCookieName = 'page_uid';

/** 13 months, the longest consent lifetime European regulators commonly accept. */
export const userCookieMaxAge = 395 * 24 * 60 * 60;

const userIdPattern = /^[A-Za-z0-9_-]{16,64}$/;

// Random bytes are drawn from the CSPRNG 4 KB at a time (one call per 256 ids, not one per
// request: the per-call cost showed in profiles of /consent/check); every byte is used once.
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

/** A new id: the time prefix (ordered-id.ts), then 16 random bytes in base64url (34 characters). */
export function newUserId(): string {
  if (randomOffset + 16 > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const id = timePrefix() + randomPool.toString('base64url', randomOffset, randomOffset + 16);
  randomOffset += 16;
  return id;
}

export function readUserId(cookieHeader: string | undefined): string | null {
  for (const part of cookieHeader?.split(';') ?? []) {
    const [name, value] = part.trim().split('=', 2);
    if (name === userCookieName && value && userIdPattern.test(value)) return value;
  }
  return null;
}

// The attributes of the last host name, computed again only when the Host header changes.
let lastHostname: string | null = null;
let lastAttributes = '';

export function serializeUserCookie(userId: string, hostname: string): string {
  if (hostname !== lastHostname) {
    const site = isLoopbackHost(hostOf(hostname)) ? 'SameSite=Lax' : 'Secure; SameSite=None';
    lastAttributes = `; Path=/consent; Max-Age=${userCookieMaxAge}; HttpOnly; ${site}`;
    lastHostname = hostname;
  }
  return `${userCookieName}=${userId}${lastAttributes}`;
}
