/**
 * The creative frame's consent request (docs/runtime.md): a `<page-ad type="custom">` frame posts
 * `{pageAdConsentCall: {callId}}` and gets the consent macros' values back, in its own window only.
 * Messages of any other window, and other messages of the frame, are not read.
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import { CONSENT_MACROS } from '../wire/consent-macros.ts';
import { parseCreativeConsentCall } from '../wire/creative-message.ts';

/** The custom ad whose own frame is `source`, if any. */
const adFrameOf = (source: MessageEventSource | null) =>
  [...document.querySelectorAll<HTMLIFrameElement>('page-ad[type=custom]>iframe')].find((frame) => frame.contentWindow === source);

export function answerCreatives(page: PageRuntime, report: (d: Diagnostic) => void): void {
  addEventListener('message', async ({ data, source, origin }) => {
    if (!adFrameOf(source)) return;
    const { value, diagnostics } = parseCreativeConsentCall(data);
    for (const d of diagnostics) report(d);
    if (!value) return;
    const names = CONSENT_MACROS.map((name) => `\${${name}}`).join(' ');
    const [gdpr, gdprConsent, consentState, usPrivacy, gppString, gppSid] = (await page.expandUrl(names, CONSENT_MACROS)).split(' ').map(decodeURIComponent);
    const reply = { callId: value.callId ?? null, gdpr, gdprConsent, consentState, usPrivacy, gppString, gppSid };
    (source as Window).postMessage({ pageAdConsentReturn: reply }, origin === 'null' ? '*' : origin);
  });
}
