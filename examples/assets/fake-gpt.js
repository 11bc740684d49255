// A FAKE of Google Publisher Tag (gpt.js) for the examples: it requests nothing from Google or
// anyone. defineSlot/display fill the slot's <div> with a labelled placeholder showing the ad unit
// path, the size and the non-personalised setting, as GPT would fill it with an ad. Pages point
// page-ad at it with <meta name="page-ad-script-doubleclick">.
(() => {
  const tag = (window.googletag = window.googletag || { cmd: [] });
  const pending = tag.cmd;
  const slots = new Map();
  let isNonPersonalized = false;
  const pubads = { setPrivacySettings: (settings) => (isNonPersonalized = Boolean(settings.nonPersonalizedAds)) };
  tag.pubads = () => pubads;
  tag.defineSlot = (path, size, id) => {
    const slot = { path, size, addService: () => slot };
    slots.set(id, slot);
    return slot;
  };
  tag.enableServices = () => {};
  tag.display = (id) => {
    const box = document.getElementById(id);
    const slot = slots.get(id);
    if (!box || !slot) return;
    box.style.cssText = 'display:flex;align-items:center;justify-content:center;height:100%;background:#e3f0ff;color:#0b2f5c;font:14px/1.4 system-ui,sans-serif;text-align:center;border:2px dashed #2d5f9a';
    box.textContent = `Fake Google Publisher Tag ad (local script, not Google): ${slot.path}, ${slot.size.join('x')}, ${isNonPersonalized ? 'non-personalised' : 'personalised'}`;
  };
  tag.destroySlots = (destroyed) => {
    for (const [id, slot] of slots) if (destroyed.includes(slot)) slots.delete(id);
  };
  tag.cmd = { push: (command) => command() };
  for (const command of pending) command();
})();
