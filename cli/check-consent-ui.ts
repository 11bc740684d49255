/**
 * The consent UIs: no flash (PRODUCT 3.6: the prompt and post-prompt are written `hidden`) and
 * a fair first layer (a prompt with an accept action also offers a reject action).
 */
import { parseActions } from '../src/runtime/action-parser.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding } from './finding.ts';
import { getAttribute, hasAttribute, type HtmlElement, isDescendantOf, locate } from './html-tree.ts';
import { findById, type Page } from './page.ts';

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
  if (!hasAttribute(element, 'hidden')) findings.push(find('validate-ui-not-hidden', `the ${role} written with the hidden attribute`, getAttribute(element, 'id'), locate(element)));
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
      findings.push(find('validate-reject-missing', `a reject action (on="tap:${consentId}.reject") next to accept`, 'accept only', locate(prompt)));
    }
  }
  return findings;
}
