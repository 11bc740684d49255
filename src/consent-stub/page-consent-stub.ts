/**
 * page-consent-stub-0.1.js: the IAB `__tcfapi`, `__gpp` and `__uspapi` stubs for the top of
 * `<head>` (docs/consent.md, "Signals for ad tech"), so ad tags that run before the consent
 * extension (Prebid, GPT) find a CMP: each queues its calls and answers `ping` as its spec gives
 * for a stub; locator frames and a postMessage bridge serve vendors in child frames. The
 * extension takes the bridge over (`__pageConsentStub.off()`) and the full APIs take the queues,
 * so nothing is answered twice. A frame cannot remove listeners through this bridge (it cannot
 * tell whose they are): that waits for the extension's. Only frames inside this window are
 * answered, and queues, messages and a frame's listeners are bounded (docs/reliability.md,
 * "Bounds of the ad-tech APIs"). Small enough to inline; no imports of the runtime.
 */
import { admitStubCall, copyOfMessage, isDescendant, queueStub } from '../consent/api-bounds.ts';
import { GPP_API, type SignalApi, TCF_API, USP_API } from '../consent/signal-apis.ts';

type ApiFunction = (...args: unknown[]) => unknown;
const scope = self as unknown as Record<string, ApiFunction | undefined> & { __pageConsentStub?: { off(): void } };
/** TCF and GPP first: they have locator frames from the stub. */
const APIS: readonly SignalApi[] = [TCF_API, GPP_API, USP_API];
/** How many listeners each frame registered through this bridge, all APIs together. */
const listeners = new WeakMap<object, number>();

/**
 * The TCF and GPP locator frames, at once: vendors in child frames look for them. Not the US
 * privacy one: the extension adds it with the first US privacy string, the only thing it could
 * answer; each frame costs a page tens of milliseconds of main-thread time in Chromium
 * (docs/decisions/head-stub-locators.md).
 */
function addLocators() {
  if (!document.body) return setTimeout(addLocators, 5);
  for (const { name } of APIS.slice(0, 2)) {
    if (frames[`${name}Locator` as never]) continue;
    const frame = document.createElement('iframe');
    frame.name = `${name}Locator`;
    frame.hidden = true;
    document.body.append(frame);
  }
}

function bridge({ data, source }: MessageEvent) {
  if (!isDescendant(source)) return;
  const isText = typeof data === 'string';
  // A fresh copy: a JSON object's keys are its own.
  const copy = copyOfMessage(data) as Record<string, Record<string, unknown>> | undefined;
  for (const { name, argumentsOf } of APIS) {
    const call = copy?.[`${name}Call`];
    if (!(call instanceof Object)) continue;
    const reply = (returnValue: unknown, success: boolean) => {
      const message = { [`${name}Return`]: { returnValue, success, callId: call.callId } };
      (source as Window).postMessage(isText ? JSON.stringify(message) : message, '*');
    };
    if (admitStubCall(call, source!, listeners)) scope[name]?.(...argumentsOf(call, reply));
    else reply(false, false);
  }
}

if (!scope.__pageConsentStub) {
  for (const { name, callbackIndex, stubPing } of APIS) scope[name] ||= queueStub(callbackIndex, stubPing);
  addEventListener('message', bridge);
  scope.__pageConsentStub = { off: () => removeEventListener('message', bridge) };
  addLocators();
}
