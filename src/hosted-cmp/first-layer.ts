/**
 * Paints the hosted prompt's first layer (the TCF policy's Appendix B; docs/consent.md, "The
 * hosted prompt's first layer"): the title and the summary sentence; the partner count as a
 * control that opens the vendor list; the purposes (or stacks) and, under their own heading,
 * the special features; where a partner claims legitimate interest, that the reader may object,
 * with a control to the place to object; the scope of the choices (this site, or the group of
 * sites); how to change them later (the page's "Privacy settings" control); the privacy policy.
 */
import type { ClientInfo } from '../wire/client-info.ts';
import type { SummaryItem } from './first-layer-summary.ts';
import { ownPurposes } from './own-view.ts';
import { formatMessage, type PageConfig } from './page-config.ts';

const $ = (id: string) => document.getElementById(id) as HTMLElement;

/** A link opening in a new tab (the frame is sandboxed with popups allowed). */
const link = (href: string, text: string) =>
  Object.assign(document.createElement('a'), { href, target: '_blank', rel: 'noopener noreferrer', textContent: text });

/** The list `listId` with its heading `headingId`, both shown only when there are items. */
function paintList(listId: string, headingId: string, heading: string, items: readonly SummaryItem[]): void {
  $(listId).append(...items.map((item) => Object.assign(document.createElement('li'), { textContent: item.name })));
  $(headingId).textContent = heading;
  $(headingId).hidden = $(listId).hidden = items.length === 0;
}

/** `text` with `{n}` replaced by `node` (a link in a sentence, whatever the word order). */
function sentenceWith(text: string, node: Node): (string | Node)[] {
  const [before = '', after = ''] = text.split('{n}');
  return [before, node, after];
}

export function paintFirstLayer(config: PageConfig, info: ClientInfo): void {
  const { messages, tcf } = config;
  $('message').textContent = config.message;
  const vendorCount = tcf ? tcf.vendorCount : config.vendors.length;
  $('vendor-line').hidden = vendorCount === 0;
  $('partners').textContent = formatMessage(messages['partnersLink'], vendorCount);
  const purposes = tcf ? tcf.summary.purposes : ownPurposes(config, info).map((p) => ({ name: p.label }));
  paintList('summary', 'purposes-title', messages['purposes'] ?? '', purposes);
  paintList('feature-summary', 'features-title', messages['specialFeatures'] ?? '', tcf?.summary.specialFeatures ?? []);
  $('li-line').hidden = !tcf?.hasLegitimateInterest;
  $('li-text').textContent = messages['liSummary'] ?? '';
  $('li-object').textContent = messages['liObject'] ?? '';
  const group = config.siteGroup;
  if (group) $('scope-line').append(...sentenceWith(messages['scopeGroup'] ?? '', link(group.url, group.name)));
  else $('scope-line').textContent = messages['scopeSite'] ?? '';
  $('later-line').textContent = formatMessage(messages['changeLater'], messages['settingsLink'] ?? '');
  if (config.privacyPolicyUrl) {
    $('policy-line').append(link(config.privacyPolicyUrl, messages['policy'] ?? ''));
    $('policy-line').hidden = false;
  }
}
