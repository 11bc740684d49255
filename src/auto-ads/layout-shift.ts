/**
 * The cumulative layout shift of a page view as Chromium's CLS counts it: layout shifts without
 * recent input, grouped in session windows (a window ends after 1 s without a shift or 5 s after
 * it began), the largest window's sum. Pure: fed with the entries of a `layout-shift` observer.
 */
export type ShiftEntry = { readonly startTime: number; readonly value: number; readonly hadRecentInput: boolean };

export type ShiftState = {
  readonly largest: number;
  readonly current: number;
  readonly windowStart: number;
  readonly lastShift: number;
};

export const SESSION_GAP_MS = 1000;
export const SESSION_MAX_MS = 5000;

export const NO_SHIFT: ShiftState = { largest: 0, current: 0, windowStart: -Infinity, lastShift: -Infinity };

/** The state after one more entry; shifts after input do not count. */
export function addShift(state: ShiftState, entry: ShiftEntry): ShiftState {
  if (entry.hadRecentInput) return state;
  const { startTime: time, value } = entry;
  const isSameWindow = time - state.lastShift < SESSION_GAP_MS && time - state.windowStart < SESSION_MAX_MS;
  const current = isSameWindow ? state.current + value : value;
  return {
    largest: Math.max(state.largest, current),
    current,
    windowStart: isSameWindow ? state.windowStart : time,
    lastShift: time,
  };
}
