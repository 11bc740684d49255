// Init script of every consent page (runs before the page's own scripts): `window.__bench`
// records the third-party script's runs, the accept click, the first animation frame in which the
// prompt is visible (`promptFrames` 1 then, a return visit's violation) and the layout shift sum.
// It tells the harness through the console (`bench:prompt` when the prompt is first visible;
// the third-party script logs `bench:ran`), so the harness waits without evaluating anything in
// the page while it is measured. Its prompt watch forces no style work while the prompt is
// hidden, so its own cost stays out of the page's main-thread figures.

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
  // The prompt is found with a plain query per frame (no style work), then watched with an
  // IntersectionObserver, which the browser answers from the layout it makes anyway; only while
  // the prompt has a box in the viewport does the probe ask `checkVisibility` (which forces style)
  // once per frame, until the first frame in which it is visible (opacity and visibility count).
  // So on a page whose prompt stays hidden, the probe costs the page almost nothing.
  let prompt = null;
  let hasBox = false;
  let isChecking = false;
  const check = () => {
    isChecking = false;
    if (!hasBox || state.promptVisibleAt !== null) return;
    if (prompt.checkVisibility(options)) {
      state.promptFrames++;
      state.promptVisibleAt = performance.now();
      console.debug('bench:prompt');
      return;
    }
    isChecking = true;
    requestAnimationFrame(check);
  };
  const watch = new IntersectionObserver((entries) => {
    hasBox = entries.at(-1).isIntersecting;
    if (hasBox && !isChecking) check();
  });
  const find = () => {
    prompt = document.querySelector(promptSelector);
    if (prompt) watch.observe(prompt);
    else requestAnimationFrame(find);
  };
  requestAnimationFrame(find);
}

/** The probe's file name in a CPU profile (consent-breakdown.mjs): its time is the harness's. */
export const PROBE_FILE = 'bench-probe.js';

/** The init script's source: the probe with a `sourceURL`, so a profile names its frames. */
export function pageProbeSource(options) {
  return `(${installPageProbe})(${JSON.stringify(options)});\n//# sourceURL=${PROBE_FILE}\n`;
}
