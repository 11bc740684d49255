// Init script of the auto-ads pages: marks when the config response arrives
// ("bench-config-arrived", fetch wrapped), when the document is parsed ("bench-parsed": both
// strategies wait for it before deciding) and when the first `ads-placed` event fires
// ("bench-ads-placed"), keeps its detail and where the ads went (the text around each, to
// compare the strategies' choices), sums layout shifts and keeps the long tasks (the longest
// one after parsing shows a per-candidate forced layout).

/** Runs in the page; serialised by Playwright's addInitScript. */
export function installPlacementProbe() {
  if (window !== window.top) return;
  const state = { placed: null, ads: [], layoutShift: 0, parsedAt: null, tasks: [] };
  window.__bench = state;
  document.addEventListener('DOMContentLoaded', () => {
    performance.mark('bench-parsed');
    state.parsedAt = performance.now();
  });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
  const originalFetch = window.fetch;
  window.fetch = function (...args) {
    const response = originalFetch.apply(this, args);
    if (String(args[0]?.url ?? args[0]).includes('/auto-ads/config'))
      response.then(() => performance.mark('bench-config-arrived'));
    return response;
  };
  document.addEventListener(
    'ads-placed',
    (event) => {
      if (state.placed) return;
      performance.mark('bench-ads-placed');
      state.placed = event.detail;
      const text = (node) => (node?.textContent ?? '').slice(0, 12);
      state.ads = [...document.querySelectorAll('page-ad:not([sticky])')].map(
        (ad) => `${text(ad.previousElementSibling)} / ${text(ad.nextElementSibling)}`,
      );
    },
    true,
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) state.layoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}
