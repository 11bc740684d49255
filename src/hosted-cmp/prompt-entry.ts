/**
 * Entry of `cmp/prompt-0.1.js`, the hosted prompt's first layer (docs/consent.md, Hosted
 * consent prompt): it paints the summary, the purposes (or stacks), the vendor count and
 * Accept all / Reject all / Customize from the config the server embedded, posts `ready`, and
 * only then loads the second layer (`cmp/details-0.1.js`), which also builds the TC strings.
 * A page that asks for another language (`clientConfig.lang`) reloads the frame in it once.
 */
import { parseClientInfo } from '../wire/client-info.ts';
import type { ChoiceKind, DetailsSession, PromptDecision } from './details-api.ts';
import { matchLanguage } from '../messages/language.ts';
import { ownPurposes } from './own-view.ts';
import type { PageConfig } from './page-config.ts';
import { paintFirstLayer } from './first-layer.ts';
import { trapFocus } from './focus-trap.ts';
import { loadScript } from './load-script.ts';
import { reportAll } from './report.ts';

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const config = JSON.parse($('prompt-config').textContent ?? '') as PageConfig;
const parsedInfo = parseClientInfo(window.name);
reportAll(parsedInfo.diagnostics);
const info = parsedInfo.value;
const messages = config.messages;
/** The page's script nonce, for the second layer's script (the CSP allows nonced scripts only). */
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
const ancestor = location.ancestorOrigins?.[0];
const post = (message: object) => window.parent.postMessage(message, ancestor && ancestor !== 'null' ? ancestor : '*');

const asked = info.clientConfig?.lang ? matchLanguage(info.clientConfig.lang) : null;
const url = new URL(location.href);
// Not when the server already answered for that language (in English, its IAB texts being incomplete).
if (asked && asked !== config.readerLang && !url.searchParams.has('lang')) {
  url.searchParams.set('lang', asked);
  location.replace(url.href);
} else {
  start();
}

function paintPage(): void {
  document.documentElement.lang = config.lang;
  document.documentElement.dir = messages['dir'] === 'rtl' ? 'rtl' : 'ltr';
  document.title = config.title;
  $('title').textContent = config.title;
  // Over a Global Privacy Control rejection, the reader sees that it was honoured (docs/consent.md, "Global Privacy Control").
  if (info.consentMetadata?.gpc === true) {
    $('gpc-line').textContent = messages['gpcHonored'] ?? '';
    $('gpc-line').hidden = false;
  }
  paintFirstLayer(config, info);
  for (const [id, key] of [
    ['accept', 'acceptAll'],
    ['reject', 'rejectAll'],
    ['customize', 'customize'],
    ['save', 'save'],
    ['layer2-title', 'customize'],
  ] as const) {
    $(id).textContent = messages[key] ?? '';
  }
  $('dismiss').setAttribute('aria-label', messages['close'] ?? '');
}

/** Where the second layer opens: at its top (Customize), on the vendor list, or on the legitimate-interest switches. */
type Place = 'top' | 'vendors' | 'objection';

/** The heading of `place` in the rendered second layer (focusable), or null. */
function headingOf(place: Place): HTMLElement | null {
  const heading =
    place === 'vendors'
      ? document.getElementById('vendors-title')
      : (document.querySelector('#layer2-body [data-key^="pl:"]')?.closest('section')?.querySelector('h3') ?? null);
  heading?.setAttribute('tabindex', '-1');
  return heading;
}

function start(): void {
  paintPage();
  let session: Promise<DetailsSession> | null = null;
  /** The second layer once loaded: Customize then renders it at once, in the click's task. */
  let loaded: DetailsSession | null = null;
  const loadDetails = () =>
    (session ??= loadScript(config.detailsScript, nonce)
      .then(() => {
        if (!self.pageCmpDetails) throw new Error('details script');
        return self.pageCmpDetails.start(config, info, nonce);
      })
      .then((ready) => {
        performance.mark('cmp-details-ready');
        loaded = ready;
        return ready;
      }));

  let isDone = false;
  const finish = (decision: PromptDecision | { action: 'dismiss' }) => {
    if (isDone) return;
    isDone = true;
    for (const button of document.querySelectorAll('button')) button.disabled = true;
    post({ type: 'consent-response', ...decision });
    const instance = info.clientConfig?.consentInstanceId;
    const outcomeUrl = config.outcomeUrl ?? (instance ? `/cmp/outcome?instance=${encodeURIComponent(instance)}` : '');
    if (outcomeUrl) navigator.sendBeacon?.(`${outcomeUrl}&action=${decision.action}`);
  };
  /** Without the second layer (it failed to load): the choice without a TC string. */
  const fallback = (kind: ChoiceKind): PromptDecision => {
    const purposes = config.tcf ? Object.keys(config.tcf.purposeMapping) : ownPurposes(config, info).map((p) => p.id);
    const isAccept = kind === 'accept';
    return {
      action: isAccept ? 'accept' : 'reject',
      ...(purposes.length ? { purposeConsents: Object.fromEntries(purposes.map((id) => [id, isAccept])) } : {}),
    };
  };
  const choose = (kind: ChoiceKind) => {
    $('prompt').setAttribute('aria-busy', 'true');
    loadDetails().then(
      (s) => finish(s.decide(kind)),
      () => finish(fallback(kind)),
    );
  };
  // The page shows the frame only once it is ready, and a hidden frame takes no focus: when the
  // page then moves focus into the frame, it lands on the dialog (or the second layer's heading),
  // not on the frame's <body>.
  let focusTarget = $('prompt');
  addEventListener('focus', () => {
    if (document.activeElement === document.body) focusTarget.focus({ preventScroll: true });
  });
  const openSecondLayer = (place: Place = 'top') => {
    $('layer1').hidden = true;
    $('layer2').hidden = false;
    $('customize').hidden = true;
    $('customize').setAttribute('aria-expanded', 'true');
    $('save').hidden = false;
    // The bench measures from here to the paint of the vendor heading (docs/decisions/server-hosted-cmp.md).
    performance.mark('cmp-customize');
    /** Focus (and so scroll to) the place asked for, once the layer is in the document. */
    const reveal = () => {
      const heading = place === 'top' ? null : headingOf(place);
      if (!heading) return;
      focusTarget = heading;
      heading.focus();
    };
    if (loaded) loaded.render($('layer2-body'));
    else {
      $('layer2-status').textContent = messages['loading'] ?? '';
      loadDetails().then(
        (s) => {
          s.render($('layer2-body'));
          reveal();
        },
        () => {
          $('layer2-status').textContent = messages['loadError'] ?? '';
          $('save').hidden = true;
        },
      );
    }
    // No layout forced in the click (the frame lays the layer out once): the heading is at the top.
    scrollTo(0, 0);
    focusTarget = $('layer2-title');
    focusTarget.focus({ preventScroll: true });
    post({ type: 'consent-ui', action: 'enter-fullscreen' });
    if (loaded) reveal();
  };

  $('accept').addEventListener('click', () => choose('accept'));
  $('reject').addEventListener('click', () => choose('reject'));
  $('save').addEventListener('click', () => choose('save'));
  $('customize').addEventListener('click', () => openSecondLayer());
  $('partners').addEventListener('click', () => openSecondLayer('vendors'));
  $('li-object').addEventListener('click', () => openSecondLayer('objection'));
  $('dismiss').addEventListener('click', () => finish({ action: 'dismiss' }));
  trapFocus($('prompt'), () => finish({ action: 'dismiss' }));

  const isReopen = info.promptTrigger === 'action';
  post({ type: 'consent-ui', action: 'ready', initialHeight: isReopen ? '80vh' : '60vh', border: true });
  if (isReopen) openSecondLayer();
  else {
    $('prompt').focus();
    requestAnimationFrame(() => setTimeout(loadDetails, 0));
  }
}
