/**
 * page-consent-stub-0.1.js: the IAB `__tcfapi`, `__gpp` and `__uspapi` stubs for the top of
 * `<head>` (docs/consent.md, "Signals for ad tech"), so ad tags that run before the consent
 * extension (Prebid, GPT) find a CMP: each queues its calls and answers `ping` as its spec gives
 * for a stub; locator frames and a postMessage bridge serve vendors in child frames. The
 * extension takes the bridge over (`__pageConsentStub.off()`) and the full APIs take the queues,
 * so nothing is answered twice. A frame cannot remove listeners through this bridge (it cannot
 * tell whose they are): that waits for the extension's. Small enough to inline; no imports of
 * the runtime.
 */
import { GPP_API, type SignalApi, TCF_API, USP_API } from '../consent/signal-apis.ts';

type ApiFunction = (...args: unknown[]) => unknown;
const scope = self as unknown as Record<string, ApiFunction | undefined> & { __pageConsentStub?: { off(): void } };
const APIS: readonly SignalApi[] = [TCF_API, GPP_API, USP_API];

function stub({ name, callbackIndex, stubPing }: SignalApi) {
  if (scope[name]) return;
  const queue: unknown[][] = [];
  scope[name] = (...args) => {
    if (!args.length) return queue;
    const callback = args[callbackIndex];
    if (args[0] === 'ping' && stubPing && typeof callback === 'function') callback(stubPing(), true);
    else queue.push(args);
  };
}

function addLocators() {
  if (!document.body) return setTimeout(addLocators, 5);
  for (const { name } of APIS) {
    if (frames[`${name}Locator` as never]) continue;
    const frame = document.createElement('iframe');
    frame.name = `${name}Locator`;
    frame.hidden = true;
    document.body.append(frame);
  }
}

function bridge({ data, source }: MessageEvent) {
  const isText = typeof data === 'string';
  try {
    if (isText) data = JSON.parse(data);
  } catch {}
  for (const { name, argumentsOf } of APIS) {
    const call = data && Object.hasOwn(data, `${name}Call`) && data[`${name}Call`];
    if (typeof call !== 'object' || !call || !source) continue;
    const reply = (returnValue: unknown, success: boolean) => {
      const message = { [`${name}Return`]: { returnValue, success, callId: call.callId } };
      (source as Window).postMessage(isText ? JSON.stringify(message) : message, '*');
    };
    if (call.command === 'removeEventListener') reply(false, false);
    else scope[name]?.(...argumentsOf(call, reply));
  }
}

if (!scope.__pageConsentStub) {
  for (const api of APIS) stub(api);
  addEventListener('message', bridge);
  scope.__pageConsentStub = { off: () => removeEventListener('message', bridge) };
  addLocators();
}
