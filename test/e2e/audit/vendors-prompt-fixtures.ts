/**
 * Fixture sites for the audit's vendors' view and prompt checks: a prompt with an axe-core
 * violation, a modal prompt without a focus trap, a page whose `__tcfapi` grants purpose 1 after
 * a reject, a page whose `__tcfapi` appears 700 ms after the navigation, a clean page (a
 * modal prompt with the overlay, strings that follow the decision), a page whose `__gpp` says
 * after a reject that the reader did not opt out (and its counterpart that follows the
 * decision), and a page whose accept lets a tag of a vendor run that its TC string leaves out
 * (and its counterpart whose string consents to that vendor). The TC strings are encoded
 * with the IAB's library over the repository's vendor list; the pages' `__tcfapi` and
 * `__uspapi` are small stand-ins for a CMP that answer from the decision (`consent-change`).
 */
import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import { GVL, Segment, TCModel, TCString } from '@iabtechlabtcf/core';
import { html } from '../harness.ts';

const gvl = () =>
  new GVL(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8')) as ConstructorParameters<typeof GVL>[0]);

/** A TC string; `consent`: purposes 1-4 and vendors 1 and 8 consented; `isDisclosed`: with the DisclosedVendors segment. */
export function tcString(consent: { purposes: number[]; vendors: number[] }, isDisclosed = true): string {
  const model = new TCModel(gvl());
  model.cmpId = 10;
  model.cmpVersion = 1;
  model.purposeConsents.set(consent.purposes);
  model.vendorConsents.set(consent.vendors);
  model.vendorsDisclosed.set([1, 8, 25]);
  return TCString.encode(model, { segments: isDisclosed ? [Segment.CORE, Segment.VENDORS_DISCLOSED] : [Segment.CORE] });
}

export const GRANTED = { purposes: [1, 2, 3, 4], vendors: [1, 8] };
export const NOTHING = { purposes: [], vendors: [] };

function consentMarkup(prompt: string, config: object = {}): string {
  const json = JSON.stringify({
    consentInstanceId: 'audit-fixture',
    consentRequired: true,
    promptUI: 'prompt',
    ...config,
  });
  return `<page-consent id="consent" layout="nodisplay"><script type="application/json">${json}</script>
<div id="prompt" hidden>${prompt}</div>
</page-consent>`;
}

const CHOICES =
  '<p>We use cookies.</p><button type="button" on="tap:consent.reject">Reject all</button><button type="button" on="tap:consent.accept">Accept all</button>';

/**
 * A CMP stand-in: `__tcfapi` (ping, getTCData, addEventListener) and `__uspapi` answering with
 * `rejected`'s strings after a reject, `accepted`'s after an accept, else `before`'s; defined
 * after `delayMs` when given.
 */
function cmpStandIn(strings: { before: string; rejected: string; accepted: string }, delayMs = 0): string {
  return `<script>(() => {
  const tc = ${JSON.stringify(strings)};
  let state = 'before';
  const listeners = [];
  const data = (status) => ({ tcString: tc[state], gdprApplies: true, eventStatus: status, cmpStatus: 'loaded', tcfPolicyVersion: 5, addtlConsent: '2~~dv.', listenerId: 1 });
  document.addEventListener('consent-change', (event) => {
    state = event.detail.state === 'rejected' ? 'rejected' : event.detail.state === 'accepted' ? 'accepted' : 'before';
    for (const listener of listeners) listener(data('useractioncomplete'), true);
  });
  const install = () => {
    window.__tcfapi = (command, version, callback) => {
      if (command === 'ping') callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: 'loaded', apiVersion: '2.3' }, true);
      else if (command === 'getTCData') callback(data('tcloaded'), true);
      else if (command === 'addEventListener') { listeners.push(callback); callback(data('tcloaded'), true); }
    };
    window.__uspapi = (command, version, callback) => callback({ version: 1, uspString: state === 'rejected' ? '1YYN' : '1YNN' }, true);
  };
  ${delayMs ? `setTimeout(install, ${delayMs});` : 'install();'}
})();</script>`;
}

const main = '<main><h1>Article</h1><p><a href="#more">Read more</a></p></main>';
const following = () => ({
  before: tcString(NOTHING),
  rejected: tcString(NOTHING),
  accepted: tcString(GRANTED),
});

/** A prompt with a button that has no accessible name (axe-core's `button-name`). */
export const axeViolationPage = (): string =>
  html(`${consentMarkup(`${CHOICES}<button type="button" class="close"></button>`)}${main}`, {
    extensions: ['page-consent'],
  });

/** A prompt that says it is modal (`aria-modal="true"`) while the page behind it stays reachable by Tab. */
export const noFocusTrapPage = (): string =>
  html(
    `${consentMarkup(CHOICES).replace('<div id="prompt" hidden>', '<div id="prompt" hidden aria-modal="true">')}${main}`,
    { extensions: ['page-consent'] },
  );

/** A page whose `__tcfapi` grants purposes 1-4 and vendors 1 and 8 whatever the reader decides. */
export const overgrantPage = (): string => {
  const granted = tcString(GRANTED);
  return html(`${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}`, {
    extensions: ['page-consent'],
    head: cmpStandIn({ before: granted, rejected: granted, accepted: granted }),
  });
};

/** A page whose `__tcfapi` (with strings that follow the decision) is defined 700 ms after the navigation. */
export const lateTcfApiPage = (): string =>
  html(`${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}`, {
    extensions: ['page-consent'],
    head: cmpStandIn(following(), 700),
  });

/** A clean page: a modal prompt with the overlay, `__tcfapi` at once, strings that follow the decision. */
export const cleanSignalsPage = (): string =>
  html(`${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}`, {
    extensions: ['page-consent'],
    head: cmpStandIn(following()),
  });

/** A GPP string with one `usnat` section: sale, sharing and targeted advertising opted out (1) or not (2), with the notices given. */
export function usnatString(optOut: 1 | 2): string {
  const model = new GppModel();
  for (const scope of ['Sale', 'Sharing', 'TargetedAdvertising']) {
    model.setFieldValue('usnat', `${scope}OptOut`, optOut);
    model.setFieldValue('usnat', `${scope}OptOutNotice`, 1);
  }
  model.setFieldValue('usnat', 'SharingNotice', 1);
  model.setFieldValue('usnat', 'MspaCoveredTransaction', 2);
  return model.encode();
}

/** A GPP stand-in: `__gpp('ping')` answers with `rejected`'s string after a reject, else `other`'s, `usnat` applicable. */
function gppStandIn(strings: { other: string; rejected: string }): string {
  return `<script>(() => {
  const gpp = ${JSON.stringify(strings)};
  let state = 'other';
  document.addEventListener('consent-change', (event) => { state = event.detail.state === 'rejected' ? 'rejected' : 'other'; });
  window.__gpp = (command, callback) => {
    if (command === 'ping') callback({ gppVersion: '1.1', cmpStatus: 'loaded', cmpDisplayStatus: 'hidden', signalStatus: 'ready', supportedAPIs: ['7:usnat'], cmpId: 10, sectionList: [7], applicableSections: [7], gppString: gpp[state], parsedSections: {} }, true);
  };
})();</script>`;
}

/** A page whose `__gpp` says, whatever the reader decides, that the reader did not opt out of sale, sharing or targeted advertising. */
export const gppOvergrantPage = (): string =>
  html(`${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}`, {
    extensions: ['page-consent'],
    head: gppStandIn({ other: usnatString(2), rejected: usnatString(2) }),
  });

/** The counterpart: after a reject `__gpp` says the reader opted out of all three. */
export const gppFollowingPage = (): string =>
  html(`${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}`, {
    extensions: ['page-consent'],
    head: gppStandIn({ other: usnatString(2), rejected: usnatString(1) }),
  });

/**
 * A page with a bidder's tag from `bidder` (an origin the test maps to vendor 8) that waits for
 * consent; after an accept its TC string consents to purposes 1-4 and to `acceptedVendors`.
 */
export const vendorTagPage = (bidder: string, acceptedVendors: number[]): string =>
  html(
    `${consentMarkup(CHOICES, { uiConfig: { overlay: true } })}${main}<script type="text/plain" data-block-on-consent src="${bidder}/bidder.js"></script>`,
    {
      extensions: ['page-consent'],
      head: cmpStandIn({
        before: tcString(NOTHING),
        rejected: tcString(NOTHING),
        accepted: tcString({ purposes: GRANTED.purposes, vendors: acceptedVendors }),
      }),
    },
  );

/**
 * A page set up for US readers (a `gpp` object, `"gpc": "reject"`, the Do-Not-Sell control) whose
 * post-prompt holds the GPC notice; `isNoticeShown`: its style shows the notice while
 * `page-consent-gpc-honored` is on, else the notice stays hidden whatever the class.
 */
export function gpcNoticePage(isNoticeShown: boolean): string {
  const config = {
    consentInstanceId: 'audit-gpc',
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'settings',
    gpc: 'reject',
    gpp: { usnat: { SaleOptOutNotice: 1, SharingOptOutNotice: 1, MspaCoveredTransaction: 2 } },
  };
  const style = `<style>.gpc-notice { display: none; }${isNoticeShown ? ' #consent.page-consent-gpc-honored .gpc-notice { display: block; }' : ''}</style>`;
  return html(
    `<page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(config)}</script>
<div id="prompt" hidden>${CHOICES}</div>
<div id="settings" hidden><p class="gpc-notice" role="status">Opt-out request honored</p><button type="button" on="tap:consent.prompt">Privacy settings</button></div>
</page-consent>${main}<footer><button type="button" on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button></footer>`,
    { extensions: ['page-consent'], head: style },
  );
}
