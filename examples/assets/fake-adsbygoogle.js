// A FAKE of Google's adsbygoogle.js for the examples: it requests nothing from Google or anyone.
// Each push({}) fills the next unfilled <ins class="adsbygoogle"> with a labelled placeholder
// showing the slot and the non-personalised flag in force, as the real script would fill it
// with an ad. Pages point page-ad at it with <meta name="page-ad-script-adsense">.
(() => {
  const queue = (window.adsbygoogle = window.adsbygoogle || []);
  const fill = () => {
    const slot = [...document.querySelectorAll('ins.adsbygoogle')].find((ins) => !ins.hasAttribute('data-adsbygoogle-status'));
    if (!slot) return;
    slot.setAttribute('data-adsbygoogle-status', 'done');
    slot.style.cssText = 'display:flex;align-items:center;justify-content:center;height:100%;background:#fff4d6;color:#4a3500;font:14px/1.4 system-ui,sans-serif;text-align:center;border:2px dashed #8a6d00';
    const personalised = queue.requestNonPersonalizedAds === 1 ? 'non-personalised' : 'personalised';
    slot.textContent = `Fake AdSense ad (local script, not Google): client ${slot.dataset.adClient}, slot ${slot.dataset.adSlot || 'auto'}, ${personalised}`;
  };
  const pending = queue.slice();
  queue.length = 0;
  queue.push = () => {
    fill();
    return 0;
  };
  pending.forEach(fill);
})();
