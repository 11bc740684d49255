/**
 * Picks the prompt of `<page-consent>` (docs/consent.md, "UI", "The CMP iframe" and "The story prompt"): the CMP iframe of `promptUiSrc` (with
 * the inline `promptUI` as its fallback), else the inline `promptUI`, else a
 * `<page-story-consent>` child (also when `promptUI` names it); a story prompt together with
 * `promptUiSrc` is refused. The
 * iframe's glue is the frame part (src/consent/frame-ui.ts) and its protocol is in
 * `page-consent-cmp-0.1.js`, both loaded only for a promptUiSrc.
 */
import type { Diagnostic, DiagnosticLevel, PageRuntime } from '../runtime/index.ts';
import type { ConsentCoreConfig } from '../wire/consent-config.ts';
import type { DecisionData } from '../wire/consent.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import type { Clock } from './remote.ts';
import type { ConsentModel, Decision } from './state.ts';
import type { renderStoryPrompt } from './story.ts';
import { createUi, type Ui } from './ui.ts';

export type PromptDeps = {
  readonly page: PageRuntime;
  /** The consent script's URL: the CMP bundle is loaded from its directory. */
  readonly scriptUrl: string;
  /** The inline `promptUI` element, if any. */
  readonly inline: HTMLElement | null;
  readonly post: HTMLElement | null;
  readonly decide: (decision: Decision, data?: DecisionData) => void;
  readonly clock: Clock;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  /** Renders a `<page-story-consent>` child (the story part); absent when it failed to load. */
  readonly renderStory?: typeof renderStoryPrompt;
  /** The CMP iframe's prompt (the frame part, with `model` for `CONSENT_INFO`); absent when it failed to load. */
  readonly frame?: { readonly createFrameUi: CreateFrameUi; readonly model: () => ConsentModel };
};

/** The frame part's prompt (src/consent/frame-ui.ts): the CMP iframe, with `fallback` while it cannot show. */
export type CreateFrameUi = (
  host: HTMLElement,
  config: ConsentCoreConfig,
  fallback: HTMLElement | null,
  deps: PromptDeps,
  model: () => ConsentModel,
) => Ui;

export function createPromptUi(host: HTMLElement, config: ConsentCoreConfig, deps: PromptDeps): Ui {
  const { promptUiSrc: src, overlay, consentPromptCaption: caption } = config;
  const { inline, post, decide, report, renderStory, frame } = deps;
  // A story prompt is the prompt by being there, or by being named in `promptUI` (as AMP pages write it).
  const story = inline
    ? inline.localName === 'page-story-consent'
      ? inline
      : null
    : host.querySelector<HTMLElement>(':scope>page-story-consent');
  if (story && src)
    report(diagnostic('consent-story-with-prompt-src', '<page-story-consent> or promptUiSrc, not both', src));
  const prompt = story ? (!src && renderStory ? renderStory(story, decide, report) : null) : inline;
  // Without the frame part (reported by the loader) the inline prompt, the frame's own fallback, shows.
  return src && frame
    ? frame.createFrameUi(host, config, prompt, deps, frame.model)
    : // A story prompt is a modal dialog: the page behind it is made inert, as with `overlay`.
      createUi(host, { prompt, post, overlay: overlay || !!story, caption });
}
