// Init script of every consent page (runs before the page's own scripts): `window.__bench`
// records the third-party script's runs, the accept click, every animation frame in which the
// prompt is visible (checkVisibility, polled from navigation start) and the layout shift sum.
// It tells the harness through the console (`bench:prompt` when the prompt is first visible;
// the third-party script logs `bench:ran`), so the harness waits without evaluating anything in
// the page while it is measured. The poll stops on a first visit once the prompt showed, so its
// own cost stays out of the page's main-thread figures.

/** Runs in the page, as the init script pageProbeSource gives. */
export function installPageProbe({ promptSelector, visit }) {
  if (window !== window.top) return;
  const state = {
    visit,
    runs: 0,
    runTimes: [],
    earlyRuns: 0,
    clickAt: null,
    promptVisibleAt: null,
    promptFrames: 0,
    layoutShift: 0,
    // Navigation start on the wall clock: the harness puts CDP's request times on the page's clock.
    timeOrigin: performance.timeOrigin,
  };
  window.__bench = state;
  addEventListener('click', () => (state.clickAt ??= performance.now()), true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) state.layoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const options = { checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true };
  const poll = () => {
    const prompt = document.querySelector(promptSelector);
    if (prompt?.checkVisibility(options)) {
      state.promptFrames++;
      if (state.promptVisibleAt === null) {
        state.promptVisibleAt = performance.now();
        console.debug('bench:prompt');
      }
    }
    // A first visit needs only the first visible frame; a return visit watches every frame.
    if (visit === 'return' || state.promptVisibleAt === null) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

/** The probe's file name in a CPU profile (consent-breakdown.mjs): its time is the harness's. */
export const PROBE_FILE = 'bench-probe.js';

/** The init script's source: the probe with a `sourceURL`, so a profile names its frames. */
export function pageProbeSource(options) {
  return `(${installPageProbe})(${JSON.stringify(options)});\n//# sourceURL=${PROBE_FILE}\n`;
}
