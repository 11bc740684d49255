// The article page of each variant, with the markup each library's own docs recommend:
// control (no library: a plain banner and a plain async third-party script), runtime-only
// (control with our `v0.js`: the floor under ours), floor (one inline script reading one
// `localStorage` item: the shortest return path of a tool that stores there), floor-async,
// floor-two and floor-runtime (the floor's script loaded as the contract loads ours), ours
// (README.md / docs/consent.md), ours-tcf (ours exposing `__tcfapi` with the head stub and a
// vendor's tag calling it), vanilla-cookieconsent 3 (its CSS, a config module,
// data-category script blocking) and klaro 0.7 (a config script, klaro.js, data-name blocking).
import { readFileSync } from 'node:fs';
import { articleBody, articlePage } from './article.mjs';

const BANNER_TEXT = 'We and our partners use cookies for ads and measurement.';

/** Whether docs/consent.md writes its prompt with the `hidden` attribute (docs/consent.md, "UI"). */
export function docsUseHidden(docs = readFileSync('docs/consent.md', 'utf8')) {
  const example = /```html\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
  return /<div id="[^"]+"[^>]*\shidden[\s>=]/.test(example);
}

function controlPage(thirdParty, head = '') {
  const banner = `<div id="consent-ui" style="position:fixed;bottom:0;left:0;right:0">
    <p>${BANNER_TEXT}</p>
    <button onclick="this.parentNode.remove()">Accept</button>
    <button onclick="this.parentNode.remove()">Reject</button>
  </div>`;
  return articlePage({ head, body: `${banner}\n  ${articleBody()}\n  <script async src="${thirdParty}"></script>` });
}

/** Control with our runtime and nothing of consent: the floor under every consent page of ours, which all load `v0.js`. */
function runtimeOnlyPage(thirdParty) {
  return controlPage(thirdParty, '<script async src="/v0.js"></script>');
}

/** The floor's banner, hidden until its script shows it. */
const FLOOR_BANNER = `<div id="consent-ui" hidden style="position:fixed;bottom:0;left:0;right:0">
    <p>${BANNER_TEXT}</p>
    <button>Accept</button>
    <button>Reject</button>
  </div>`;

/**
 * The floor's script: it reads its one stored item at once; when the item says the reader
 * accepted, it starts the blocked script, else it shows the banner, whose Accept stores the item
 * and starts it. Inline after the article it acts at once; as a file of its own
 * (`waitsForParse`) it acts once the document is parsed, as our element acts on the page's
 * blocked scripts (an async script in `<head>` may run before they are in the document).
 */
const floorScript = (thirdParty, waitsForParse) => `(function () {
  var item = null;
  try { item = localStorage.getItem('floor-consent'); } catch (e) {}
  var start = function () {
    var ui = document.getElementById('consent-ui');
    var run = function () { var s = document.createElement('script'); s.src = ${JSON.stringify(thirdParty)}; s.async = true; document.body.append(s); };
    if (item === 'accepted') { ui.remove(); run(); return; }
    ui.hidden = false;
    ui.querySelector('button').onclick = function () { try { localStorage.setItem('floor-consent', 'accepted'); } catch (e) {} ui.remove(); run(); };
  };
  ${waitsForParse ? "if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();" : 'start();'}
})();
`;

/**
 * The shortest return path a consent tool that keeps its decision in `localStorage` can take:
 * the floor's script inline after the article. No runtime, no element, no config: the floor
 * under every variant that reads `localStorage` (docs/decisions/consent-return-record.md, "The
 * floor").
 */
function floorPage(thirdParty) {
  return articlePage({
    head: '',
    body: `${FLOOR_BANNER}\n  ${articleBody()}\n  <script>${floorScript(thirdParty, false)}</script>`,
  });
}

/** The floor's script as a file of its own, run from `async` script tags as ours is. */
const FLOOR_FILE = '/fixtures/floor.js';

/** A script that does nothing, served and cached as the floor's file is. */
const NOTHING_FILE = '/fixtures/nothing.js';

/**
 * The floor as the contract's markup loads a consent tool: its script from an `async` tag in
 * `<head>`, served and cached as the library files are (`floor-async`); the same after a
 * second async script that does nothing (`floor-two`); and after our runtime
 * (`floor-runtime`: `v0.js` and the floor's file, the two async files of every page of ours,
 * the consent file doing nothing but the floor's work). The shortest return path the contract's
 * two files allow (docs/decisions/consent-return-record.md, "Eighth round").
 */
function floorAsyncPage(_thirdParty, _isHidden, first = null) {
  const head = `${first ? `<script async src="${first}"></script>\n  ` : ''}<script async src="${FLOOR_FILE}"></script>`;
  return articlePage({ head, body: `${FLOOR_BANNER}\n  ${articleBody()}` });
}

/** Ours with the return-visit fast path inlined after `</page-consent>` (docs/consent.md "Return visits"). */
function oursInlinePage(thirdParty, isHidden) {
  const fastPath = readFileSync('dist/cdn/v0/page-consent-fast-0.1.js', 'utf8').replace(
    /\n\/\/# sourceMappingURL=.*\n?$/,
    '',
  );
  return oursPage(thirdParty, isHidden).replace('</page-consent>', `</page-consent>\n  <script>${fastPath}</script>`);
}

/** The vendor list the `ours-tcf` page's TC strings are built against (the repository's fixture). */
export const TCF_VENDOR_LIST = '/fixtures/vendor-list.json';

/**
 * A vendor's tag in `<head>` right after the head stub, as Google's and Prebid's tags call it:
 * `addEventListener` at once; the probe's `tcf` gets the time of the first answer and its status,
 * and the time of the first `tcloaded` or `useractioncomplete` (when a tag may act).
 */
const TCF_VENDOR_TAG = `<script>(function () {
    var bench = window.__bench;
    if (!bench || typeof __tcfapi !== 'function') return;
    var tcf = bench.tcf = { firstAt: null, firstStatus: null, readyAt: null };
    __tcfapi('addEventListener', 2, function (data, success) {
      if (!success || !data) return;
      if (tcf.firstAt === null) { tcf.firstAt = performance.now(); tcf.firstStatus = data.eventStatus; }
      if (tcf.readyAt === null && (data.eventStatus === 'tcloaded' || data.eventStatus === 'useractioncomplete')) tcf.readyAt = performance.now();
    });
  })();</script>`;

/** Ours exposing the TCF API with TC strings from its own prompt, the head stub first (docs/consent.md). */
function oursTcfPage(thirdParty, isHidden) {
  const tcf = {
    exposesTcfApi: true,
    cmpId: 300,
    cmpVersion: 1,
    tcf: { vendorListHref: TCF_VENDOR_LIST, vendors: [1, 2, 8, 25, 91] },
  };
  const head = `<script src="/v0/page-consent-stub-0.1.js"></script>\n  ${TCF_VENDOR_TAG}`;
  return oursPage(thirdParty, isHidden, { head, config: tcf });
}

function oursPage(thirdParty, isHidden, extra = { head: '', config: {} }) {
  const hidden = isHidden ? ' hidden' : '';
  const head = `${extra.head}<script async src="/v0.js"></script>
  <script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>`;
  const config = {
    consentInstanceId: 'bench',
    consentRequired: true,
    promptUI: 'consent-ui',
    postPromptUI: 'consent-settings',
    ...extra.config,
  };
  const element = `<page-consent id="consent" layout="nodisplay">
    <script type="application/json">${JSON.stringify(config)}</script>
    <div id="consent-ui"${hidden}>
      <p>${BANNER_TEXT}</p>
      <button on="tap:consent.accept">Accept</button>
      <button on="tap:consent.reject">Reject</button>
    </div>
    <div id="consent-settings"${hidden}><button on="tap:consent.prompt">Privacy settings</button></div>
  </page-consent>`;
  const blocked = `<script type="text/plain" data-block-on-consent src="${thirdParty}"></script>`;
  return articlePage({ head, body: `${element}\n  ${articleBody()}\n  ${blocked}` });
}

/** vanilla-cookieconsent's "module" set-up: the UMD bundle imported by a config module. */
export const COOKIECONSENT_CONFIG = `import '/peers/vanilla-cookieconsent/dist/cookieconsent.umd.js';
CookieConsent.run({
  // Its default hides the modal from automated browsers (navigator.webdriver); the benchmark is one.
  hideFromBots: false,
  categories: { necessary: { enabled: true, readOnly: true }, analytics: {} },
  language: {
    default: 'en',
    translations: {
      en: {
        consentModal: { title: 'Cookies', description: '${BANNER_TEXT}', acceptAllBtn: 'Accept', acceptNecessaryBtn: 'Reject' },
        preferencesModal: { title: 'Privacy settings', acceptAllBtn: 'Accept', acceptNecessaryBtn: 'Reject', savePreferencesBtn: 'Save', sections: [] },
      },
    },
  },
});
`;

function cookieconsentPage(thirdParty) {
  const head = `<link rel="stylesheet" href="/peers/vanilla-cookieconsent/dist/cookieconsent.css">
  <script type="module" src="/fixtures/cookieconsent-config.js"></script>`;
  const blocked = `<script type="text/plain" data-category="analytics" src="${thirdParty}"></script>`;
  return articlePage({ head, body: `${articleBody()}\n  ${blocked}` });
}

/** klaro's annotated config.js, reduced to one service. */
export const KLARO_CONFIG = `var klaroConfig = {
  version: 1,
  elementID: 'klaro',
  storageMethod: 'cookie',
  cookieName: 'klaro',
  default: false,
  mustConsent: false,
  acceptAll: true,
  hideDeclineAll: false,
  translations: {
    zz: { privacyPolicyUrl: '/privacy' },
    en: { consentNotice: { description: '${BANNER_TEXT}' }, purposes: { analytics: 'Analytics' } },
  },
  services: [{ name: 'analytics', title: 'Analytics', purposes: ['analytics'] }],
};
`;

function klaroPage(thirdParty) {
  const head = `<script defer src="/fixtures/klaro-config.js"></script>
  <script defer data-config="klaroConfig" src="/peers/klaro/dist/klaro.js"></script>`;
  const blocked = `<script type="text/plain" data-type="application/javascript" data-name="analytics" data-src="${thirdParty}"></script>`;
  return articlePage({ head, body: `${articleBody()}\n  ${blocked}` });
}

/** Per variant: page builder, the prompt to watch and the accept button to click. */
export const VARIANTS = {
  control: { build: controlPage, prompt: '#consent-ui', accept: '#consent-ui button', blocks: false },
  'runtime-only': { build: runtimeOnlyPage, prompt: '#consent-ui', accept: '#consent-ui button', blocks: false },
  floor: { build: floorPage, prompt: '#consent-ui', accept: '#consent-ui button', blocks: true },
  'floor-async': { build: floorAsyncPage, prompt: '#consent-ui', accept: '#consent-ui button', blocks: true },
  'floor-two': {
    build: (thirdParty, isHidden) => floorAsyncPage(thirdParty, isHidden, NOTHING_FILE),
    prompt: '#consent-ui',
    accept: '#consent-ui button',
    blocks: true,
  },
  'floor-runtime': {
    build: (thirdParty, isHidden) => floorAsyncPage(thirdParty, isHidden, '/v0.js'),
    prompt: '#consent-ui',
    accept: '#consent-ui button',
    blocks: true,
  },
  ours: { build: oursPage, prompt: '#consent-ui', accept: '#consent-ui button[on="tap:consent.accept"]', blocks: true },
  'ours-inline': {
    build: oursInlinePage,
    prompt: '#consent-ui',
    accept: '#consent-ui button[on="tap:consent.accept"]',
    blocks: true,
  },
  'ours-tcf': {
    build: oursTcfPage,
    prompt: '#consent-ui',
    accept: '#consent-ui button[on="tap:consent.accept"]',
    blocks: true,
    tcf: true,
  },
  'vanilla-cookieconsent': {
    build: cookieconsentPage,
    prompt: '#cc-main .cm',
    accept: '#cc-main .cm [data-role="all"]',
    blocks: true,
  },
  klaro: {
    build: klaroPage,
    prompt: '.klaro .cookie-notice',
    accept: '.klaro .cookie-notice .cm-btn-success',
    blocks: true,
  },
};

/** The blocked "third-party" script of every page (cross-origin: static-server.mjs). */
export const blockedScriptUrl = (server) => `${server.thirdPartyOrigin}/third-party.js`;

/** Registers every variant page on the static server; returns `{variant: url}`. */
export function serveConsentPages(server, { isHidden }) {
  const thirdParty = blockedScriptUrl(server);
  // A site's own config script, served like the library it configures (the pages are never cached).
  server.file('/fixtures/cookieconsent-config.js', COOKIECONSENT_CONFIG);
  server.file('/fixtures/klaro-config.js', KLARO_CONFIG);
  server.file(FLOOR_FILE, floorScript(thirdParty, true));
  server.file(NOTHING_FILE, '/* nothing */\n');
  server.file(TCF_VENDOR_LIST, readFileSync('fixtures/tcf/vendor-list.json', 'utf8'), 'application/json');
  const urls = {};
  for (const [name, variant] of Object.entries(VARIANTS)) {
    server.page(`/consent/${name}.html`, variant.build(thirdParty, isHidden));
    urls[name] = `${server.origin}/consent/${name}.html`;
  }
  return urls;
}
