/**
 * The consent UIs: no flash (docs/consent.md, "UI": the prompt, post-prompt and story prompt are written
 * `hidden`), a fair first layer (a prompt with an accept action also offers a reject action; a
 * story prompt on a page that requires consent does not hide decline with `onlyAccept`), and the
 * story prompt's config read by the component's own parser.
 */
import { parseStoryJson } from '../src/wire/story-config.ts';
import { parseActions } from '../src/wire/actions.ts';
import { parseConfigScripts } from '../src/wire/config-script.ts';
import { collector } from '../src/wire/values.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, hasAttribute, type HtmlElement, isDescendantOf, locate, readText } from './html-tree.ts';
import { findById, findJsonScripts, type Page } from './page.ts';

/** The actions called on `target` by `on` attributes in the subtree of `root`. */
function listActionsOn(root: HtmlElement, target: string, page: Page): Set<string> {
  const actions = new Set<string>();
  for (const element of page.elements.filter((candidate) => candidate === root || isDescendantOf(candidate, root))) {
    const on = getAttribute(element, 'on');
    if (on === null) continue;
    for (const calls of parseActions(on).value.values()) {
      for (const call of calls) if (call.target === target) actions.add(call.action);
    }
  }
  return actions;
}

function checkHidden(element: HtmlElement, role: string, findings: Finding[]): void {
  if (!hasAttribute(element, 'hidden'))
    findings.push(
      find(
        'validate-ui-not-hidden',
        `the ${role} written with the hidden attribute`,
        getAttribute(element, 'id'),
        locate(element),
      ),
    );
}

export function checkConsentUi(page: Page, consent: ConsentSummary | null): Finding[] {
  const findings: Finding[] = [];
  const consentId = consent && getAttribute(consent.element, 'id');
  for (const config of consent?.configs ?? []) {
    const prompt = config.promptUI === undefined ? undefined : findById(page.elements, config.promptUI);
    const postPrompt = config.postPromptUI === undefined ? undefined : findById(page.elements, config.postPromptUI);
    if (prompt) checkHidden(prompt, 'promptUI', findings);
    if (postPrompt) checkHidden(postPrompt, 'postPromptUI', findings);
    const actions = prompt && consentId ? listActionsOn(prompt, consentId, page) : new Set<string>();
    if (prompt && actions.has('accept') && !actions.has('reject')) {
      findings.push(
        find(
          'validate-reject-missing',
          `a reject action (on="tap:${consentId}.reject") next to accept`,
          'accept only',
          locate(prompt),
        ),
      );
    }
  }
  for (const story of consent
    ? page.elements.filter(
        (element) => element.tagName === 'page-story-consent' && isDescendantOf(element, consent.element),
      )
    : []) {
    findings.push(...checkStory(story, page, consent?.configs ?? []));
    const src = consent?.configs.find((config) => config.promptUiSrc !== undefined)?.promptUiSrc;
    if (src !== undefined)
      findings.push(
        find('consent-story-with-prompt-src', '<page-story-consent> or promptUiSrc, not both', src, locate(story)),
      );
  }
  return findings;
}

/** A `<page-story-consent>`: written `hidden`, a valid config, decline offered where consent is required. */
function checkStory(story: HtmlElement, page: Page, configs: NonNullable<ConsentSummary>['configs']): Finding[] {
  const findings: Finding[] = [];
  checkHidden(story, 'story prompt', findings);
  const [script] = findJsonScripts(story);
  const into = collector('consent-story-invalid');
  const config = parseStoryJson(parseConfigScripts(findJsonScripts(story).map(readText)), page.baseUrl, into);
  findings.push(...into.diagnostics.map((d) => toFinding(d, locate(script ?? story))));
  if (config?.onlyAccept === true && configs.some(({ consentRequired }) => consentRequired !== false)) {
    findings.push(
      find(
        'validate-story-only-accept',
        'a decline button (no onlyAccept) where consent is required',
        'onlyAccept: true',
        locate(script ?? story),
      ),
    );
  }
  return findings;
}
