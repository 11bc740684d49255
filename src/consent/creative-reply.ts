/**
 * The creative frame's consent request (docs/runtime.md): a `<page-ad type="custom">` frame posts
 * `{pageAdConsentCall: {callId}}` and gets the consent macros' values back, in its own window only.
 * Messages of any other window, and other messages of the frame, are not read. A decision whose
 * TC string is still being built is answered once the string is in. The consent extension
 * listens (`answerCreatives`); the reply is its creative part.
 */
import type { Diagnostic } from '../runtime/index.ts';
import { type ConsentSource, consentMacroValues, settledSnapshot } from '../browser-shared/consent-macros.ts';
import { parseCreativeConsentCall } from '../wire/creative-message.ts';

/** The custom ad whose own frame is `source`, if any. */
const adFrameOf = (source: MessageEventSource | null) =>
  [...document.querySelectorAll<HTMLIFrameElement>('page-ad[type=custom]>iframe')].find(
    (frame) => frame.contentWindow === source,
  );

/** Answers one message of an ad frame. */
export async function replyToCreative(
  { data, source, origin }: MessageEvent,
  consent: ConsentSource,
  report: (d: Diagnostic) => void,
): Promise<void> {
  const { value, diagnostics } = parseCreativeConsentCall(data);
  for (const d of diagnostics) report(d);
  if (!value) return;
  const { GDPR, GDPR_CONSENT, CONSENT_STATE, US_PRIVACY, GPP_STRING, GPP_SID, ADDTL_CONSENT } = consentMacroValues(
    await settledSnapshot(consent),
  );
  const reply = {
    callId: value.callId ?? null,
    gdpr: GDPR,
    gdprConsent: GDPR_CONSENT,
    consentState: CONSENT_STATE,
    usPrivacy: US_PRIVACY,
    gppString: GPP_STRING,
    gppSid: GPP_SID,
    addtlConsent: ADDTL_CONSENT,
  };
  (source as Window).postMessage({ pageAdConsentReturn: reply }, origin === 'null' ? '*' : origin);
}

/** Listens for ad frames' messages; `reply` answers one (`replyToCreative`, possibly once loaded). */
export function answerCreatives(reply: (event: MessageEvent) => void): void {
  addEventListener('message', (event) => adFrameOf(event.source) && reply(event));
}
