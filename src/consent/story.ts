/**
 * `<page-story-consent>` (docs/consent.md, "The story prompt"): a child of `<page-consent>` whose JSON config (title,
 * message, vendors, optional externalLink and onlyAccept) is rendered into the element itself,
 * which then serves as the prompt: a labelled modal dialog in the document's direction, with
 * accept and decline buttons in the page's language. The markup writes it with `hidden`;
 * `createUi` shows it.
 */
import { storyButtonTexts } from '../messages/story-texts.ts';
import type { Diagnostic } from '../runtime/index.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { parseStoryJson } from '../wire/story-config.ts';
import { parseLoadableUrl } from '../wire/url.ts';
import { collector } from '../wire/values.ts';
import type { Decision } from './state.ts';

/** Renders the story prompt into `story`; returns it, or null after diagnostics. */
export function renderStoryPrompt(
  story: HTMLElement,
  decide: (decision: Decision) => void,
  report: (d: Diagnostic) => void,
): HTMLElement | null {
  const into = collector('consent-story-invalid');
  const config = parseStoryJson(readConfigScript(story), location.href, into);
  for (const d of into.diagnostics) report(d);
  if (!config) return null;
  const doc = story.ownerDocument;
  const add = <K extends keyof HTMLElementTagNameMap>(parent: Element, tag: K, text = '') =>
    parent.appendChild(Object.assign(doc.createElement(tag), { textContent: text }));
  const id = `${story.closest('page-consent')?.id ?? 'consent'}-story-title`;
  story.replaceChildren();
  Object.assign(add(story, 'h2', config.title), { id });
  add(story, 'p', config.message);
  const list = add(story, 'ul');
  for (const vendor of config.vendors) add(list, 'li', vendor);
  const { title, href } = config.externalLink ?? {};
  const url = href ? parseLoadableUrl(href, location.href) : undefined;
  if (title && url) Object.assign(add(add(story, 'p'), 'a', title), { href: url.href, target: '_top' });
  const buttons = add(story, 'div');
  const button = (text: string, decision: Decision) =>
    Object.assign(add(buttons, 'button', text), { type: 'button', onclick: () => decide(decision) });
  const texts = storyButtonTexts(doc.documentElement.lang);
  if (!config.onlyAccept) button(texts.decline, 'rejected');
  button(texts.accept, 'accepted');
  for (const [name, value] of [
    ['role', 'dialog'],
    ['aria-modal', 'true'],
    ['aria-labelledby', id],
    ['dir', doc.dir || 'ltr'],
  ])
    story.setAttribute(name!, value!);
  return story;
}
