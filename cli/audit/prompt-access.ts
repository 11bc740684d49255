/**
 * The prompt, for everyone (docs/validator.md, "The prompt's accessibility"): axe-core on the
 * live prompt (the inline prompt's element, or the CMP frame's document) and a keyboard walk.
 *
 * axe-core's source is evaluated in the prompt's frame as `@axe-core/playwright` does, and run
 * there on the prompt alone with the WCAG 2 A/AA rules (`iframes: false`: a CMP frame is run in
 * itself). It runs in the page's world, so its answer comes back as one bounded JSON text that
 * `parseViolations` reads field by field. The keyboard walk presses Tab from where focus is when
 * the prompt shows, up to `MAX_TABS` times, and notes each control of the prompt focus reaches and
 * each element outside a modal prompt it moves to; after a decision, where focus went.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ElementHandle, Frame, Page } from 'playwright-core';
import { isRecord, own, parseJsonText } from '../../src/wire/values.ts';
import { FRAME, SHOWN } from './prompt.ts';
import type { AxeViolation, KeyboardWalk, PromptLayer } from './report.ts';

/** The controls a reader must reach: native controls, ARIA widgets and our `on="tap:..."` controls. */
const CONTROLS =
  'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="checkbox"], [role="switch"], [role="radio"], [role="tab"], [on*="tap:"]';
/** A control that opens the prompt's second layer or settings view. */
const SETTINGS_NAME = /\b(customi[sz]e|settings|preferences|manage|options|more choices|einstellungen|anpassen)\b/i;
export const MAX_TABS = 80;
const CLOSE_WAIT_MS = 2_000;
const MAX_VIOLATIONS = 50;
const MAX_SELECTORS = 20;
const MAX_JSON = 262_144;
const AXE_TIMEOUT_MS = 15_000;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const IMPACTS: readonly NonNullable<AxeViolation['impact']>[] = ['minor', 'moderate', 'serious', 'critical'];

let axeSource: string | undefined;
const sourceOfAxe = () => {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
};

/** Where the prompt lives: its frame, the selector of its element there (null: the whole frame), and a label. */
export type PromptPlace = { readonly frame: Frame; readonly scope: string | null; readonly label: string };

/** The CMP frame first: while it shows, the inline match is only its container. */
export async function findPrompt(page: Page): Promise<PromptPlace | null> {
  const frame = await (await page.$(FRAME))?.contentFrame();
  if (frame) return { frame, scope: null, label: frame.url() };
  return (await page.locator(SHOWN).filter({ visible: true }).count()) > 0
    ? { frame: page.mainFrame(), scope: SHOWN, label: 'page' }
    : null;
}

const text = (value: unknown, max = 512) => (typeof value === 'string' ? value.slice(0, max) : '');

/** Reads axe-core's violations from the page's JSON text; anything malformed is dropped. */
export function parseViolations(json: unknown): AxeViolation[] | null {
  if (typeof json !== 'string' || json.length > MAX_JSON) return null;
  const value = parseJsonText(json);
  if (!Array.isArray(value)) return null;
  return value.slice(0, MAX_VIOLATIONS).flatMap((item): AxeViolation[] => {
    if (!isRecord(item)) return [];
    const rule = text(own(item, 'id'), 128);
    if (!/^[a-z0-9-]+$/.test(rule)) return [];
    const impact = IMPACTS.find((candidate) => candidate === own(item, 'impact')) ?? null;
    const targets = own(item, 'targets');
    const selectors = (Array.isArray(targets) ? targets : [])
      .slice(0, MAX_SELECTORS)
      .map((target) => (Array.isArray(target) ? target.map((part) => text(part)).join(' >>> ') : text(target)))
      .filter(Boolean);
    return [{ rule, impact, help: text(own(item, 'help')), helpUrl: text(own(item, 'helpUrl')), selectors }];
  });
}

/** Runs in the frame: axe-core on the prompt, the violations as JSON text. */
async function runAxeInFrame({ scope, tags }: { scope: string | null; tags: string[] }): Promise<string> {
  const axe = Reflect.get(globalThis, 'axe') as {
    run(context: unknown, options: unknown): Promise<{ violations: unknown[] }>;
  };
  const context = scope ? { include: [...document.querySelectorAll(scope)] } : document;
  const results = await axe.run(context, {
    runOnly: { type: 'tag', values: tags },
    resultTypes: ['violations'],
    iframes: false,
  });
  return JSON.stringify(
    results.violations.map((violation) => {
      const v = violation as {
        id: string;
        impact: string;
        help: string;
        helpUrl: string;
        nodes: { target: unknown }[];
      };
      return { id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, targets: v.nodes.map((n) => n.target) };
    }),
  );
}

/** axe-core on one view of the prompt. */
export async function axeLayer(
  place: PromptPlace,
  layer: PromptLayer['layer'],
  openedBy: string | null,
): Promise<PromptLayer | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`axe-core took over ${AXE_TIMEOUT_MS / 1000} s`)), AXE_TIMEOUT_MS);
  });
  try {
    const run = async () => {
      await place.frame.evaluate(sourceOfAxe());
      return place.frame.evaluate(runAxeInFrame, { scope: place.scope, tags: WCAG_TAGS });
    };
    const violations = parseViolations(await Promise.race([run(), late]));
    if (!violations) return "axe-core's answer could not be read";
    return { layer, frame: place.label, openedBy, violations };
  } catch (error) {
    return `axe-core did not run: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** Runs in the page: an element's name for the report, `<tag> "its label"`. */
function nameOf(element: Element): string {
  const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ');
  return `<${element.localName}>${label ? ` "${label.slice(0, 60)}"` : ''}`;
}

/** Runs in the top frame: whether the prompt (its element, or the CMP frame) says it is modal. */
function isModalPrompt(scope: string | null): boolean {
  const prompt = document.querySelector(scope ?? '.page-consent-frame iframe:not([hidden])');
  return !!prompt?.closest('[aria-modal="true"], dialog:modal');
}

/** Runs in the top frame: the focused element's name when it is outside the prompt, else null. */
function focusOutside(scope: string | null): string | null {
  const active = document.activeElement;
  if (!active || active === document.body || active === document.documentElement) return null;
  // A CMP frame's prompt is its consent element: the frame and the announcement beside it.
  const frame = document.querySelector('.page-consent-frame iframe:not([hidden])');
  const prompt = scope ? document.querySelector(scope) : (frame?.closest('page-consent') ?? frame);
  if (prompt && (prompt === active || prompt.contains(active))) return null;
  const label = (active.getAttribute('aria-label') ?? active.textContent ?? '').trim().replace(/\s+/g, ' ');
  return `<${active.localName}>${label ? ` "${label.slice(0, 60)}"` : ''}`;
}

/** The keyboard walk on the shown prompt, before any decision. */
export async function walkKeyboard(page: Page, place: PromptPlace): Promise<KeyboardWalk> {
  const handles = await place.frame.$$(place.scope ? `:is(${place.scope}) :is(${CONTROLS})` : CONTROLS);
  const controls: ElementHandle<Element>[] = [];
  for (const handle of handles.slice(0, MAX_TABS))
    if (
      await handle.evaluate((element) => element.checkVisibility() && !element.matches(':disabled')).catch(() => false)
    )
      controls.push(handle as ElementHandle<Element>);
  const names = await Promise.all(controls.map((handle) => handle.evaluate(nameOf).catch(() => '<?>')));
  const isModal = await page
    .mainFrame()
    .evaluate(isModalPrompt, place.scope)
    .catch(() => false);
  const reached = new Set<number>();
  const escapedTo: string[] = [];
  const steps = Math.min(MAX_TABS, controls.length * 2 + 4);
  for (let step = 0; step < steps; step += 1) {
    await page.keyboard.press('Tab');
    const index = await place.frame
      .evaluate((list) => list.indexOf(document.activeElement as Element), controls)
      .catch(() => -1);
    if (index >= 0) reached.add(index);
    const outside = isModal
      ? await page
          .mainFrame()
          .evaluate(focusOutside, place.scope)
          .catch(() => null)
      : null;
    if (outside && !escapedTo.includes(outside)) escapedTo.push(outside);
    if (!isModal && reached.size === controls.length) break;
  }
  return {
    isModal,
    controls: names,
    unreached: names.filter((_, index) => !reached.has(index)),
    escapedTo: escapedTo.slice(0, 10),
    focusAfterClose: null,
    isFocusLost: null,
  };
}

/** After the decision closed the prompt: where focus is, and whether it was left in the hidden prompt or on nothing visible. */
export async function focusAfterClose(page: Page): Promise<{ name: string; isLost: boolean }> {
  // The decision is recorded before the prompt has closed: give the close up to CLOSE_WAIT_MS to move focus.
  await page
    .waitForFunction(
      ([shown, frame]) => !document.activeElement?.closest(shown) && !document.activeElement?.matches(frame),
      [SHOWN, FRAME] as const,
      { timeout: CLOSE_WAIT_MS },
    )
    .catch(() => undefined);
  return page
    .evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body || active === document.documentElement)
        return { name: '<body>', isLost: false };
      const label = (active.getAttribute('aria-label') ?? active.textContent ?? '').trim().replace(/\s+/g, ' ');
      const name = `<${active.localName}>${label ? ` "${label.slice(0, 60)}"` : ''}`;
      const inPrompt = !!active.closest('page-consent, page-story-consent, .page-consent-frame');
      return { name, isLost: inPrompt || !active.checkVisibility() };
    })
    .catch(() => ({ name: 'unknown', isLost: false }));
}

/** Opens the prompt's second layer where it has a settings control; returns the control's name, or null. */
export async function openSecondLayer(place: PromptPlace): Promise<string | null> {
  const root = place.scope ? place.frame.locator(place.scope) : place.frame.locator(':root');
  const control = root
    .getByRole('button', { name: SETTINGS_NAME })
    .or(root.getByRole('link', { name: SETTINGS_NAME }))
    .filter({ visible: true })
    .first();
  if ((await control.count()) === 0) return null;
  const name = ((await control.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
  const before = await root.innerHTML().catch(() => '');
  await control.click({ timeout: 2_000 }).catch(() => undefined);
  // The view changes in the same task or after a fetch: wait for the prompt's markup to change.
  const deadline = Date.now() + 2_000;
  while (Date.now() < deadline && (await root.innerHTML().catch(() => before)) === before)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return name;
}
