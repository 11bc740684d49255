/**
 * The audit's bounds, so that no page can keep it running or fill the machine: an overall
 * deadline, a cap on what one journey records (requests, page reports, blocked requests, each
 * counted apart), and the renderer's memory (browser.ts; a renderer past it crashes). The first
 * bound that trips stops the audit: the journey in progress closes its context, the journeys
 * not yet run are not run, and the report says which bound tripped and that it is incomplete.
 */
export type BoundName = 'deadline' | 'records' | 'memory';

export type Limits = {
  /** The whole audit, launch excluded. */
  readonly timeoutMs: number;
  /** Per journey, per kind of record. */
  readonly maxRecords: number;
};

export const DEFAULT_LIMITS: Limits = { timeoutMs: 120_000, maxRecords: 10_000 };

export type Tripped = { readonly bound: BoundName; readonly detail: string };

export type Bounds = {
  readonly limits: Limits;
  tripped(): Tripped | null;
  /** The first trip wins; each stop listener runs once. */
  trip(bound: BoundName, detail: string): void;
  /** Runs `stop` when a bound trips (at once if one already has); returns the unsubscribe. */
  onTrip(stop: () => void): () => void;
  /** Adds to a list that trips the records bound instead of growing past `maxRecords`; false when not added. */
  capped<T>(items: T[], what: string): (item: T) => boolean;
};

export function createBounds(limits: Limits): Bounds {
  let tripped: Tripped | null = null;
  const listeners = new Set<() => void>();
  const bounds: Bounds = {
    limits,
    tripped: () => tripped,
    trip(bound, detail) {
      if (tripped) return;
      tripped = { bound, detail };
      for (const stop of listeners) stop();
      listeners.clear();
    },
    onTrip(stop) {
      if (tripped) {
        stop();
        return () => undefined;
      }
      listeners.add(stop);
      return () => listeners.delete(stop);
    },
    capped: (items, what) => (item) => {
      if (items.length < limits.maxRecords && !tripped) return items.push(item) > 0;
      bounds.trip('records', `more than ${limits.maxRecords} ${what} in one journey`);
      return false;
    },
  };
  return bounds;
}

/** Trips the deadline bound when `timeoutMs` has passed; returns the timer's cancel. */
export function startDeadline(bounds: Bounds): () => void {
  const timer = setTimeout(
    () => bounds.trip('deadline', `the audit passed its deadline of ${bounds.limits.timeoutMs / 1000} s`),
    bounds.limits.timeoutMs,
  );
  timer.unref();
  return () => clearTimeout(timer);
}
