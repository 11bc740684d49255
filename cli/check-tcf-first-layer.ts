/**
 * A page's own TCF prompt against the first-layer items of the TCF policy's Appendix B that markup
 * can show (docs/consent.md, "Your own TCF prompt"): for a `<page-consent>` whose config has a
 * `tcf` object and a `promptUI`, the prompt marks each item with `data-tcf`: the partner count
 * as a control (`partners`, a `<button>`, `<a href>` or `<summary>` whose text has a digit), the
 * legitimate-interest sentence holding a control to the place to object (`legitimate-interest`),
 * the scope (`scope`, with text), how to change choices later (`change-later`, with text, and a
 * control anywhere on the page that re-opens the prompt, `on="tap:<consent-id>.prompt"`) and,
 * when `tcf.specialFeatures` lists any, their heading (`special-features` on `<h2>`-`<h6>`). Each
 * item missing is one warning, `validate-tcf-first-layer`. What only a browser can tell (the
 * layout at 320 px, where a control leads) is not checked here.
 */
import { parseActions } from '../src/wire/actions.ts';
import type { ConsentConfig } from '../src/wire/consent-config.ts';
import { parseTcfConfig } from '../src/wire/tcf-settings.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding } from './finding.ts';
import { getAttribute, type HtmlElement, isDescendantOf, locate, readText } from './html-tree.ts';
import { findById, type Page } from './page.ts';

const CODE = 'validate-tcf-first-layer';
const HEADINGS = new Set(['h2', 'h3', 'h4', 'h5', 'h6']);

/** A button, a link, or the summary of a disclosure (`<details>` holding the vendor list). */
const isControl = (element: HtmlElement): boolean =>
  element.tagName === 'button' ||
  element.tagName === 'summary' ||
  (element.tagName === 'a' && getAttribute(element, 'href') !== null);

/** Whether an `on` attribute of the page calls `<consentId>.prompt`. */
function hasPromptControl(page: Page, consentId: string): boolean {
  return page.elements.some((element) => {
    const on = getAttribute(element, 'on');
    return (
      on !== null &&
      [...parseActions(on).value.values()].flat().some((call) => call.target === consentId && call.action === 'prompt')
    );
  });
}

type Item = { readonly name: string; readonly expected: string; readonly isMet: (marked: HtmlElement) => boolean };

function itemsOf(config: ConsentConfig, page: Page, consentId: string): Item[] {
  const specialFeatures = parseTcfConfig(config.tcf, page.baseUrl).value?.specialFeatures ?? [];
  const items: Item[] = [
    {
      name: 'partners',
      expected:
        'the partner count as a control to the vendor list: data-tcf="partners" on a <button>, <a href> or <summary> whose text has the number',
      isMet: (marked) => isControl(marked) && /\d/.test(readText(marked)),
    },
    {
      name: 'legitimate-interest',
      expected:
        'that partners rely on legitimate interest and the reader may object: data-tcf="legitimate-interest" holding a <button> or <a href> to the place to object',
      isMet: (marked) => page.elements.some((element) => isDescendantOf(element, marked) && isControl(element)),
    },
    {
      name: 'scope',
      expected: 'the scope of the choices (this site, or the group of sites): data-tcf="scope" with text',
      isMet: (marked) => readText(marked).trim() !== '',
    },
    {
      name: 'change-later',
      expected: `how to change choices later: data-tcf="change-later" with text, naming a control with on="tap:${consentId}.prompt"`,
      isMet: (marked) => readText(marked).trim() !== '' && hasPromptControl(page, consentId),
    },
  ];
  if (specialFeatures.length)
    items.push({
      name: 'special-features',
      expected: 'a heading for the special features: data-tcf="special-features" on an <h2>-<h6>',
      isMet: (marked) => HEADINGS.has(marked.tagName),
    });
  return items;
}

export function checkTcfFirstLayer(page: Page, consent: ConsentSummary | null): Finding[] {
  const consentId = consent && getAttribute(consent.element, 'id');
  const config = consent?.configs.find((candidate) => candidate.tcf !== undefined && candidate.promptUI !== undefined);
  const prompt = config?.promptUI === undefined ? undefined : findById(page.elements, config.promptUI);
  if (!config || !prompt || !consentId) return [];
  const marked = (name: string) =>
    page.elements.filter(
      (element) =>
        (element === prompt || isDescendantOf(element, prompt)) && getAttribute(element, 'data-tcf') === name,
    );
  return itemsOf(config, page, consentId).flatMap(({ name, expected, isMet }) => {
    const elements = marked(name);
    if (elements.some(isMet)) return [];
    const [first] = elements;
    return [find(CODE, expected, first ? `<${first.tagName}> without it` : 'none', locate(first ?? prompt))];
  });
}
