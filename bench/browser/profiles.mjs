// Device profiles: "fast" (no throttling, desktop viewport) and "mobile" (4x CPU slowdown and
// slow 4G: 150 ms latency, 1.6 Mbps down, 750 kbps up, phone viewport), applied through CDP.

export const PROFILES = {
  fast: { viewport: { width: 1280, height: 800 }, cpuRate: 1, network: null },
  mobile: {
    viewport: { width: 412, height: 915 },
    cpuRate: 4,
    network: { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 },
  },
};

/** Applies the profile to the page behind `cdp` (a CDPSession); Network must be enabled first. */
export async function applyProfile(cdp, profile) {
  if (profile.cpuRate !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuRate });
  if (profile.network) await cdp.send('Network.emulateNetworkConditions', profile.network);
}
