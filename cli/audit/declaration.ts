/**
 * The cookie declaration a publisher publishes, built from the journeys: every cookie and
 * storage item once, with its name, first or third party and the site that set it, its lifetime,
 * the journeys in which it appears, the tag on the page that set it, and a category: the
 * purposes of the page's own `data-block-on-consent-purposes` marker on the tag that set it (one
 * of our elements or a blocked script that ran), else "unclassified".
 */
import { endpointOf } from './page-config.ts';
import type { CookieEvent, DeclarationItem, Initiator, JourneyReport, StorageEvent } from './report.ts';
import { siteOf, siteOfCookieDomain } from './sites.ts';

export const UNCLASSIFIED = 'unclassified';

type Seen = { item: DeclarationItem; journeys: Set<JourneyReport['name']> };

type PurposeTag = { readonly category: string; readonly tag: Initiator['tag'] };

/** Origin + path of every built element or blocked script with purposes: its purposes, and the tag itself. */
function purposeTags(journeys: readonly JourneyReport[]): Map<string, PurposeTag> {
  const tags = new Map<string, PurposeTag>();
  for (const journey of journeys) {
    for (const built of journey.built) {
      const endpoint = built.src === null ? null : endpointOf(built.src);
      const purposes = (built.purposes ?? '')
        .split(',')
        .map((purpose) => purpose.trim())
        .filter((purpose) => purpose.length > 0);
      if (endpoint === null || purposes.length === 0 || tags.has(endpoint)) continue;
      tags.set(endpoint, {
        category: purposes.join(', '),
        tag: { kind: built.kind === 'element' ? 'element' : 'script', url: built.src },
      });
    }
  }
  return tags;
}

/** The purpose-blocked tag behind a write (the writer, a link of its chain, or its tag), or null. */
function purposeTagOf(
  initiator: Initiator,
  source: string | null,
  purposes: ReadonlyMap<string, PurposeTag>,
): PurposeTag | null {
  for (const url of [source, ...initiator.chain, initiator.tag.url]) {
    const endpoint = url === null ? null : endpointOf(url);
    const found = endpoint === null ? undefined : purposes.get(endpoint);
    if (found !== undefined) return found;
  }
  return null;
}

/** The category and the tag: a purpose-blocked tag's purposes and that tag (our runtime inserted it, so the chain names the runtime), else unclassified and the initiator's tag. */
function classify(
  initiator: Initiator,
  source: string | null,
  purposes: ReadonlyMap<string, PurposeTag>,
): { category: string; tag: Initiator['tag'] } {
  return purposeTagOf(initiator, source, purposes) ?? { category: UNCLASSIFIED, tag: initiator.tag };
}

function cookieLifetime(cookie: CookieEvent, decisionAt: string): number | null {
  if (cookie.expires === null) return null;
  const written = Date.parse(decisionAt) + cookie.t;
  const expires = Date.parse(cookie.expires);
  return Number.isNaN(written) || Number.isNaN(expires) ? null : Math.max(0, Math.round((expires - written) / 1000));
}

function cookieItem(
  cookie: CookieEvent,
  decisionAt: string,
  purposes: ReadonlyMap<string, PurposeTag>,
): DeclarationItem {
  return {
    kind: 'cookie',
    name: cookie.name,
    domain: cookie.domain,
    party: cookie.party,
    setBySite: siteOf(cookie.source) ?? siteOfCookieDomain(cookie.domain),
    source: cookie.source,
    isPersistent: cookie.isPersistent,
    lifetimeSeconds: cookieLifetime(cookie, decisionAt),
    journeys: [],
    ...classify(cookie.initiator, cookie.source, purposes),
  };
}

function storageItem(write: StorageEvent, purposes: ReadonlyMap<string, PurposeTag>): DeclarationItem {
  return {
    kind: write.kind,
    name: write.key,
    domain: write.origin,
    party: write.party,
    setBySite: write.writer === null ? null : siteOf(write.writer),
    source: write.writer,
    isPersistent: write.kind !== 'sessionStorage',
    lifetimeSeconds: null,
    journeys: [],
    ...classify(write.initiator, write.writer, purposes),
  };
}

const JOURNEY_ORDER: readonly JourneyReport['name'][] = ['no-decision', 'reject', 'accept'];

/** Every item once (by kind, name and domain or origin; a cookie's leading dot aside), as its first write describes it, first party first. */
export function buildDeclaration(journeys: readonly JourneyReport[]): DeclarationItem[] {
  const purposes = purposeTags(journeys);
  const seen = new Map<string, Seen>();
  const add = (key: string, journey: JourneyReport['name'], item: () => DeclarationItem) => {
    const entry = seen.get(key) ?? { item: item(), journeys: new Set() };
    entry.journeys.add(journey);
    seen.set(key, entry);
  };
  for (const journey of journeys) {
    for (const cookie of journey.cookies)
      add(`cookie\n${cookie.name}\n${cookie.domain.replace(/^\./, '')}`, journey.name, () =>
        cookieItem(cookie, journey.decisionAt, purposes),
      );
    for (const write of journey.storage)
      add(`${write.kind}\n${write.key}\n${write.origin}`, journey.name, () => storageItem(write, purposes));
  }
  return [...seen.values()]
    .map(({ item, journeys: names }) => ({ ...item, journeys: JOURNEY_ORDER.filter((name) => names.has(name)) }))
    .sort(
      (a, b) =>
        a.party.localeCompare(b.party) ||
        a.kind.localeCompare(b.kind) ||
        a.name.localeCompare(b.name) ||
        a.domain.localeCompare(b.domain),
    );
}
