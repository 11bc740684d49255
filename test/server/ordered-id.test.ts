/**
 * Ids the server makes up sort by creation time (their rows share index pages) and stay
 * unguessable and unique.
 */
import { describe, expect, it } from 'vitest';
import { newReceiptId } from '../../server/receipts.ts';
import { newUserId, readUserId, userCookieName } from '../../server/user-cookie.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('time-ordered ids', () => {
  for (const [name, make, shape] of [
    ['user id', newUserId, /^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/],
    ['receipt id', newReceiptId, /^rcpt_[0-9a-f]{44}$/],
  ] as const) {
    it(`${name}: the creation time first, then random characters`, async () => {
      const before = Date.now();
      const first = make();
      await sleep(3);
      const second = make();
      expect(first).toMatch(shape);
      const time = Number.parseInt(first.replace(/^rcpt_/, '').slice(0, 12), 16);
      expect(time).toBeGreaterThanOrEqual(before);
      expect(time).toBeLessThanOrEqual(before + 1000);
      expect([second, first].sort()).toEqual([first, second]);
      const many = new Set(Array.from({ length: 10_000 }, make));
      expect(many.size).toBe(10_000);
    });
  }

  it('a new user id reads back from its cookie', () => {
    const id = newUserId();
    expect(readUserId(`other=1; ${userCookieName}=${id}`)).toBe(id);
  });
});
