// Per page, through CDP: bytes on the wire (sum of Network.loadingFinished encodedDataLength)
// and main-thread time (Performance.getMetrics ScriptDuration and TaskDuration, in ms).
import { applyProfile } from './profiles.mjs';

/** Opens a CDP session on `page`, applies the profile, and starts counting. */
export async function attachMeter(context, page, profile) {
  const cdp = await context.newCDPSession(page);
  let bytes = 0;
  cdp.on('Network.loadingFinished', (event) => (bytes += event.encodedDataLength));
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  await applyProfile(cdp, profile);
  const readMetrics = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { scriptMs: value('ScriptDuration'), taskMs: value('TaskDuration') };
  };
  const start = await readMetrics();
  return {
    /** The CDP session (for the harness's own DOM and input commands). */
    cdp,
    /** Totals since attach. */
    async read() {
      const now = await readMetrics();
      return { scriptMs: now.scriptMs - start.scriptMs, taskMs: now.taskMs - start.taskMs, bytes };
    },
  };
}
