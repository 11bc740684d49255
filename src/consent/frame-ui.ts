/**
 * The CMP iframe's prompt (docs/consent.md, "The CMP iframe"), in the frame part: a slot shown
 * by `createUi`, followed by the frame of `page-consent-cmp-0.1.js` once that bundle loaded; its
 * URL template may hold `CONSENT_INFO(field)`, which exists there only (docs/runtime.md).
 */
import type { ConsentCoreConfig } from '../wire/consent-config.ts';
import { PAGE_MACROS } from '../browser-shared/url-macros.ts';
import { own } from '../wire/values.ts';
import { CMP_SERVICE } from './cmp-service.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { CreatePromptFrame, FrameOptions } from './prompt-frame.ts';
import type { PromptDeps } from './prompt-ui.ts';
import { detailOf } from './provider.ts';
import type { ConsentModel } from './state.ts';
import { createUi, type Ui } from './ui.ts';

export const CMP_LOAD_TIMEOUT_MS = 10_000;

/** `CONSENT_INFO(field)`: one field of the consent state as the CMP iframe's URL reads it. */
export function consentInfoOf(model: () => ConsentModel): ReadonlyMap<string, (field?: string) => string> {
  const info = (field = '') => {
    const current = model();
    const { kind } = current.state;
    const consentStateValue = kind === 'accepted' || kind === 'rejected' ? kind : 'unknown';
    return (
      JSON.stringify(
        own(
          { ...detailOf(current), consentStateValue, tcfPolicyVersion: current.tcfPolicyVersion, isDirty: false },
          field,
        ),
      ) ?? ''
    );
  };
  return new Map([['CONSENT_INFO', info]]);
}

/**
 * Loads `page-consent-cmp-0.1.js`; resolves its `createPromptFrame`, or undefined (reported) when
 * it fails or has not run within CMP_LOAD_TIMEOUT_MS.
 */
function loadCmp({ page, scriptUrl, report, clock }: PromptDeps): Promise<CreatePromptFrame | undefined> {
  const script = Object.assign(document.createElement('script'), {
    async: true,
    src: new URL('page-consent-cmp-0.1.js', scriptUrl || location.href).href,
  });
  const failed = new Promise<undefined>((resolve) => {
    script.onerror = () => resolve(undefined);
    clock.setTimeout(() => resolve(undefined), CMP_LOAD_TIMEOUT_MS);
  });
  document.head.append(script);
  return Promise.race([page.whenService(CMP_SERVICE) as Promise<CreatePromptFrame>, failed]).then((create) => {
    if (!create) report(diagnostic('consent-cmp-load-failed', 'the script to load', script.src), 'warn');
    return create;
  });
}

/**
 * The frame's prompt for `config.promptUiSrc`, with the inline prompt (or story) as its
 * `fallback`; `model` is the controller's current model (for `CONSENT_INFO`).
 */
export function createFrameUi(
  host: HTMLElement,
  config: ConsentCoreConfig,
  fallback: HTMLElement | null,
  deps: PromptDeps,
  model: () => ConsentModel,
): Ui {
  const {
    promptUiSrc: src = '',
    sandbox,
    clientConfig,
    consentPromptCaption: caption,
    buttonActionCaption: buttonCaption,
  } = config;
  const { clock, report, decide } = deps;
  const options: Omit<FrameOptions, 'expandUrl'> = {
    src,
    sandbox,
    clientConfig,
    fallback,
    caption,
    buttonCaption,
    clock,
    report,
    decide,
  };
  const slot = Object.assign(document.createElement('div'), { className: 'page-consent-frame', hidden: true });
  host.append(slot);
  const ui = createUi(host, {
    prompt: slot,
    post: deps.post,
    overlay: config.overlay,
    caption: config.consentPromptCaption,
  });
  const info = consentInfoOf(model);
  const expandUrl = (src: string) => deps.page.expandUrl(src, PAGE_MACROS, info);
  let follow: ((model: ConsentModel) => void) | undefined;
  let latest: ConsentModel | undefined;
  loadCmp(deps).then((create) => {
    follow = create
      ? create(slot, ui, { ...options, expandUrl })
      : () => fallback && slot.replaceChildren(Object.assign(fallback, { hidden: false }));
    if (latest) follow(latest);
  });
  const render = (current: ConsentModel) => {
    ui(current);
    latest = current;
    follow?.(current);
  };
  return Object.assign(render, { hasPrompt: true, setModal: ui.setModal });
}
