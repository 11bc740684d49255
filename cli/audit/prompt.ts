/**
 * The consent prompt as a reader meets it: whether one is shown (an inline prompt or story
 * prompt the component marked `page-consent-shown`, or the CMP frame), and the decision. An
 * inline prompt is decided by clicking its control whose `on` calls `<consent-id>.reject` (or
 * `.accept`, read with the runtime's action parser); a story prompt by its decline or accept
 * button; a CMP frame by its button of that name (the English words CMPs use, or the hosted
 * prompt's own text in any of its languages), else by the `consent-response` message the frame
 * would send, posted from inside the frame.
 */
import type { Locator, Page } from 'playwright-core';
import { textsOf } from '../../src/messages/catalogues.ts';
import { parseActions } from '../../src/wire/actions.ts';

export type Decision = 'reject' | 'accept';

/** An inline or story prompt the component shows, and a shown CMP frame. */
export const SHOWN = 'page-consent .page-consent-shown, page-story-consent.page-consent-shown';
export const FRAME = '.page-consent-frame iframe:not([hidden])';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A button name that starts with one of `words`, or is one of the catalogues' `texts`. */
const buttonName = (words: readonly string[], texts: readonly string[]) =>
  new RegExp(`^(?:(?:${words.join('|')})\\b|(?:${texts.map(escapeRegExp).join('|')})$)`, 'iu');
const FRAME_BUTTON: Record<Decision, RegExp> = {
  reject: buttonName(['reject', 'decline', 'refuse', 'deny'], textsOf('rejectAll', 'decline')),
  accept: buttonName(['accept', 'agree', 'allow'], textsOf('acceptAll', 'accept')),
};
const POLL_MS = 50;

export async function isPromptShown(page: Page): Promise<boolean> {
  return (await page.locator(SHOWN).or(page.locator(FRAME)).filter({ visible: true }).count()) > 0;
}

/** Polls for a shown prompt for up to `waitMs` (a prompt may follow the remote check). */
export async function waitForPrompt(page: Page, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await isPromptShown(page).catch(() => false)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const callsAction = (on: string, consentId: string, decision: Decision) =>
  [...parseActions(on).value.values()].some((calls) =>
    calls.some((call) => call.target === consentId && call.action === decision),
  );

type Control = { readonly control: Locator; readonly how: string };

/** The prompt's visible control for the decision, and how a report names a click on it; null when there is none. */
export async function findChoiceControl(
  page: Page,
  consentId: string | null,
  decision: Decision,
): Promise<Control | null> {
  const controls = page.locator(SHOWN).locator('[on]').filter({ visible: true });
  for (let index = 0; consentId !== null && index < (await controls.count()); index += 1) {
    const control = controls.nth(index);
    if (callsAction((await control.getAttribute('on')) ?? '', consentId, decision))
      return { control, how: `the prompt's ${decision} control` };
  }
  const story = page.locator('page-story-consent.page-consent-shown button').filter({ visible: true });
  const buttons = await story.count();
  if (buttons > 0) {
    if (decision === 'reject' && buttons < 2) return null;
    return {
      control: story.nth(decision === 'reject' ? 0 : buttons - 1),
      how: `the story prompt's ${decision === 'reject' ? 'decline' : 'accept'} button`,
    };
  }
  const frame = await (await page.$(FRAME))?.contentFrame();
  const button = frame?.getByRole('button', { name: FRAME_BUTTON[decision] }).filter({ visible: true }).first();
  return button && (await button.count()) > 0 ? { control: button, how: `the CMP frame's ${decision} button` } : null;
}

/** Clicks or posts the decision; returns how, or null when the prompt offers no such action. */
export async function decide(page: Page, consentId: string | null, decision: Decision): Promise<string | null> {
  const found = await findChoiceControl(page, consentId, decision);
  if (found) {
    await found.control.click();
    return `clicked ${found.how}`;
  }
  const frame = await (await page.$(FRAME))?.contentFrame();
  if (
    !frame ||
    (await page.locator('page-story-consent.page-consent-shown button').filter({ visible: true }).count()) > 0
  )
    return null;
  await frame.evaluate((action) => parent.postMessage({ type: 'consent-response', action }, '*'), decision);
  return `posted the CMP frame's consent-response ${decision}`;
}
