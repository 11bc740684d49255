/**
 * The page audit's fixture sites, served by the e2e harness: the page on `127.0.0.1`, a tracker
 * on `localhost` and a font CDN on `cdn.localhost` (Chromium sends `*.localhost` to loopback).
 * By registrable domain these are three sites: an IP address and `localhost` have no public
 * suffix, so each is its own site, and `cdn.localhost` is a domain under the `localhost` suffix.
 */
import { html, type Route } from '../harness.ts';

const js = (body: string): Route => ({ body, headers: { 'content-type': 'text/javascript' } });
const GIF = { body: 'GIF89a', headers: { 'content-type': 'image/gif' } };

/** The cookie the untagged third-party `<img>` sets by its response header, and the line beside it that Chromium refuses. */
export const HEADER_COOKIE = 'tp_uid=8f3a2c';
export const REFUSED_COOKIE = 'tp_insecure=1';

/** `accept`: the accept control's action (a plain accept grants no purpose). */
export function consentMarkup(config: object = {}, accept = 'consent.accept'): string {
  const json = JSON.stringify({
    consentInstanceId: 'audit-fixture',
    consentRequired: true,
    promptUI: 'prompt',
    ...config,
  });
  return `<page-consent id="consent" layout="nodisplay"><script type="application/json">${json}</script>
<div id="prompt" hidden><p>Cookies?</p><button type="button" on="tap:consent.reject">Reject all</button><button type="button" on="tap:${accept}">Accept all</button></div>
</page-consent>`;
}

/** Routes for the tracker and the CDN; `tracker` and `cdn` are their origins. */
export function fixtureRoutes(tracker: string): Record<string, Route> {
  return {
    '/tag-manager.js': js(
      `const s = document.createElement('script'); s.src = '${tracker}/analytics.js'; document.head.append(s);`,
    ),
    '/analytics.js': js(`document.cookie = 'audit_id=42; max-age=31536000; path=/';`),
    '/storage.js': js(`localStorage.setItem('tracker-id', 'abc'); navigator.sendBeacon('${tracker}/beacon', 'hello');`),
    '/beacon': { status: 204 },
    '/fonts.js': js(`window.fontsLoaded = true;`),
    '/reject-listener.js': js(
      `document.addEventListener('consent-change', (event) => { if (event.detail.state === 'rejected') new Image().src = '${tracker}/reject-pixel.gif'; });`,
    ),
    '/measure.js': js(`document.cookie = 'measure_id=5; max-age=86400; path=/';`),
    '/blocked-tag.js': js(`window.blockedTagRan = true; new Image().src = '${tracker}/after-accept.gif';`),
    // Third-party cookies by response header. Chromium takes http://localhost for a secure
    // origin, so it stores the `Secure` one; it refuses `SameSite=None` without `Secure`.
    '/unmarked.gif': {
      ...GIF,
      headers: {
        ...GIF.headers,
        'set-cookie': [
          `${HEADER_COOKIE}; Max-Age=31536000; Path=/; SameSite=None; Secure`,
          `${REFUSED_COOKIE}; Max-Age=31536000; Path=/; SameSite=None`,
        ],
      },
    },
    '/reject-pixel.gif': GIF,
    '/blocked.gif': GIF,
    '/after-accept.gif': GIF,
  };
}

/** A page with every leak the audit must find, and a CDN tag it must list as allowed. */
export function leakyPage(tracker: string, cdn: string): string {
  return html(
    `${consentMarkup()}
<main><h1>Leaky</h1>
<img src="${tracker}/unmarked.gif" alt="" width="1" height="1">
<page-img data-block-on-consent src="${tracker}/blocked.gif" width="10" height="10" layout="fixed" alt=""></page-img>
</main>`,
    {
      extensions: ['page-consent'],
      head: `<script src="${tracker}/tag-manager.js"></script><script src="${tracker}/storage.js"></script><script src="${cdn}/fonts.js"></script><script src="/reject-listener.js"></script>`,
    },
  );
}

/** A page whose third parties all wait for an accept. */
export function cleanPage(tracker: string): string {
  return html(
    `${consentMarkup()}
<main><h1>Clean</h1>
<page-img data-block-on-consent src="${tracker}/blocked.gif" width="10" height="10" layout="fixed" alt=""></page-img>
<script type="text/plain" data-block-on-consent src="${tracker}/blocked-tag.js"></script>
<p><a href="/clean-2.html">Next page</a></p>
</main>`,
    { extensions: ['page-consent'] },
  );
}

/** A page whose only cookie-setting tag waits for the `measurement` purpose, which its accept grants. */
export function purposePage(tracker: string): string {
  return html(
    `${consentMarkup({ purposeConsentRequired: ['measurement'] }, 'consent.accept(purposeConsentDefault=true)')}
<main><h1>Purposes</h1>
<script type="text/plain" data-block-on-consent-purposes="measurement" src="${tracker}/measure.js"></script>
</main>`,
    { extensions: ['page-consent'] },
  );
}

/** A same-site second page for `--pages`. */
export const secondPage = (tracker: string): string =>
  html(
    `${consentMarkup()}<main><h1>Second</h1><page-img data-block-on-consent src="${tracker}/blocked.gif" width="10" height="10" layout="fixed" alt=""></page-img></main>`,
    { extensions: ['page-consent'] },
  );

export const noConsentPage = (): string => html('<main><h1>No consent here</h1><p>Nothing to decide.</p></main>');
