/**
 * Picks the prompt of `<page-consent>` (docs/consent.md, "UI", "The CMP iframe" and "The story prompt"): the CMP iframe of `promptUiSrc` (with
 * the inline `promptUI` as its fallback), else the inline `promptUI`, else a
 * `<page-story-consent>` child (also when `promptUI` names it); a story prompt together with
 * `promptUiSrc` is refused. The
 * iframe protocol is in `page-consent-cmp-0.1.js`, loaded here only for a promptUiSrc.
 */
import type { Diagnostic, DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import type { DecisionData } from '../wire/consent.ts';
import { CMP_SERVICE } from './cmp-service.ts';
import { diagnose } from './diagnose.ts';
import type { CreatePromptFrame, FrameOptions } from './prompt-frame.ts';
import type { Clock } from './remote.ts';
import type { ConsentModel, Decision } from './state.ts';
import type { renderStoryPrompt } from './story.ts';
import { createUi, type Ui } from './ui.ts';

export const CMP_LOAD_TIMEOUT_MS = 10_000;

export type PromptDeps = {
  readonly page: PageRuntime;
  /** The consent script's URL: the CMP bundle is loaded from its directory. */
  readonly scriptUrl: string;
  /** The inline `promptUI` element, if any. */
  readonly inline: HTMLElement | null;
  readonly post: HTMLElement | null;
  readonly decide: (decision: Decision, data?: DecisionData) => void;
  /** Expands `promptUiSrc`'s macros, `CONSENT_INFO(field)` included. */
  readonly expandUrl: (src: string) => Promise<string>;
  readonly clock: Clock;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  /** Renders a `<page-story-consent>` child (the story part); absent when it failed to load. */
  readonly renderStory?: typeof renderStoryPrompt;
};

/**
 * Loads `page-consent-cmp-0.1.js`; resolves its `createPromptFrame`, or undefined (reported) when
 * it fails or has not run within CMP_LOAD_TIMEOUT_MS.
 */
function loadCmp({ page, scriptUrl, report, clock }: PromptDeps): Promise<CreatePromptFrame | undefined> {
  const script = Object.assign(document.createElement('script'), { async: true, src: new URL('page-consent-cmp-0.1.js', scriptUrl || location.href).href });
  const failed = new Promise<undefined>((resolve) => {
    script.onerror = () => resolve(undefined);
    clock.setTimeout(() => resolve(undefined), CMP_LOAD_TIMEOUT_MS);
  });
  document.head.append(script);
  return Promise.race([page.whenService(CMP_SERVICE) as Promise<CreatePromptFrame>, failed]).then((create) => {
    if (!create) report(diagnose('consent-cmp-load-failed', 'the script to load', script.src));
    return create;
  });
}

/** The CMP iframe's prompt: a slot shown by `createUi`, followed by the frame once loaded. */
function createFrameUi(host: HTMLElement, config: ConsentConfig, options: Omit<FrameOptions, 'expandUrl'>, deps: PromptDeps): Ui {
  const slot = Object.assign(document.createElement('div'), { className: 'page-consent-frame', hidden: true });
  host.append(slot);
  const ui = createUi(host, { prompt: slot, post: deps.post, overlay: config.overlay, caption: config.consentPromptCaption });
  let follow: ((model: ConsentModel) => void) | undefined;
  let latest: ConsentModel | undefined;
  loadCmp(deps).then((create) => {
    const { fallback } = options;
    follow = create ? create(slot, ui, { ...options, expandUrl: deps.expandUrl }) : () => fallback && slot.replaceChildren(Object.assign(fallback, { hidden: false }));
    if (latest) follow(latest);
  });
  const render = (model: ConsentModel) => {
    ui(model);
    latest = model;
    follow?.(model);
  };
  return Object.assign(render, { hasPrompt: true, setModal: ui.setModal });
}

export function createPromptUi(host: HTMLElement, config: ConsentConfig, deps: PromptDeps): Ui {
  const { promptUiSrc: src, overlay, consentPromptCaption: caption } = config;
  const { inline, post, decide, clock, report, renderStory } = deps;
  // A story prompt is the prompt by being there, or by being named in `promptUI` (as AMP pages write it).
  const story = inline ? (inline.localName === 'page-story-consent' ? inline : null) : host.querySelector<HTMLElement>(':scope>page-story-consent');
  if (story && src) report(diagnose('consent-story-with-prompt-src', '<page-story-consent> or promptUiSrc, not both', src));
  const prompt = story ? (!src && renderStory ? renderStory(story, decide, report) : null) : inline;
  if (!src) return createUi(host, { prompt, post, overlay, caption });
  const { sandbox, clientConfig, buttonActionCaption: buttonCaption } = config;
  return createFrameUi(host, config, { src, sandbox, clientConfig, fallback: prompt, caption, buttonCaption, clock, report, decide }, deps);
}
