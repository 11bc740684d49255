/**
 * The settle wait: until no request has started or ended for `quietMs` and none is in flight
 * (a request that never ends, such as a long poll, is given up on at `maxMs`). Driven by the
 * network, never a fixed sleep: a quiet page settles in `quietMs`.
 */
import type { NetworkLog } from './network-log.ts';

export const SETTLE = { quietMs: 400, maxMs: 5_000, pollMs: 50 } as const;

export async function settle(log: NetworkLog, options: { quietMs?: number; maxMs?: number } = {}): Promise<void> {
  const quietMs = options.quietMs ?? SETTLE.quietMs;
  const deadline = Date.now() + (options.maxMs ?? SETTLE.maxMs);
  while (Date.now() < deadline) {
    if (log.inFlight.size === 0 && Date.now() - log.lastActivity() >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, SETTLE.pollMs));
  }
}
