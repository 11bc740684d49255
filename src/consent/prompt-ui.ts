/**
 * Picks the prompt of `<page-consent>` (PRODUCT 3.6-3.8): the CMP iframe of `promptUiSrc` (with
 * the inline `promptUI` as its fallback), else the inline `promptUI`, else a
 * `<page-story-consent>` child; a story prompt together with `promptUiSrc` is refused.
 */
import type { Diagnostic, DiagnosticLevel } from '../runtime/index.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import type { DecisionData } from '../wire/consent.ts';
import { diagnose } from './diagnose.ts';
import { createPromptFrame } from './prompt-frame.ts';
import type { Clock } from './remote.ts';
import type { Decision } from './state.ts';
import { renderStoryPrompt } from './story.ts';
import { createUi, type Ui } from './ui.ts';

export type PromptDeps = {
  /** The inline `promptUI` element, if any. */
  readonly inline: HTMLElement | null;
  readonly post: HTMLElement | null;
  readonly decide: (decision: Decision, data?: DecisionData) => void;
  readonly expandUrl: (template: string) => Promise<string>;
  readonly clock: Clock;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
};

export function createPromptUi(host: HTMLElement, config: ConsentConfig, { inline, post, decide, expandUrl, clock, report }: PromptDeps): Ui {
  const { promptUiSrc: src, overlay, consentPromptCaption: caption } = config;
  const story = host.querySelector<HTMLElement>(':scope>page-story-consent');
  if (story && src) report(diagnose('consent-story-with-prompt-src', '<page-story-consent> or promptUiSrc, not both', src));
  const prompt = inline ?? (story && !src ? renderStoryPrompt(story, decide, report) : null);
  if (!src) return createUi(host, { prompt, post, overlay, caption });
  const { sandbox, clientConfig, buttonActionCaption: buttonCaption } = config;
  const frame = createPromptFrame({ src, sandbox, clientConfig, fallback: prompt, caption, buttonCaption, expandUrl, clock, report, decide });
  host.append(frame.slot);
  return frame.attach(createUi(host, { prompt: frame.slot, post, overlay, caption }));
}
