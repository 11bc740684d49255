/**
 * Blocking markers (docs/consent.md, "Blocking other elements"), read by the runtime's own `readBlockRequest`: valid policies,
 * purposes the consent config asks for, a meta tag that lists known elements, and a consent
 * element to answer for them.
 */
import { readBlockRequest } from '../src/wire/block-markers.ts';
import { isPurposeId, PURPOSE_ID_EXPECTED } from '../src/wire/purpose-id.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { asDomAttributes, locate } from './html-tree.ts';
import { type Page, readMetaBlocking } from './page.ts';

/** The elements a meta tag may block: the built-ins and `page-auto-ads`. */
const BLOCKABLE = ['page-img', 'page-pixel', 'page-iframe', 'page-ad', 'page-auto-ads'];

export function checkBlocking(page: Page, consent: ConsentSummary | null): Finding[] {
  const findings: Finding[] = [];
  const meta = readMetaBlocking(page);
  const metaAt = meta && locate(meta.element, 'content');
  for (const tag of meta?.tags ?? []) {
    if (metaAt && !BLOCKABLE.includes(tag))
      findings.push(find('validate-meta-tag-unknown', `a blockable element (${BLOCKABLE.join(', ')})`, tag, metaAt));
  }
  // Purposes are known only when the config parsed; every variant counts.
  const purposes = consent?.configs.length
    ? new Set(consent.configs.flatMap((config) => config.purposeConsentRequired))
    : null;
  for (const element of page.elements) {
    if (element === consent?.element || element.tagName === 'page-geo') continue;
    const at = locate(element, 'data-block-on-consent');
    const request = readBlockRequest(asDomAttributes(element), meta?.tags ?? new Set(), (d) =>
      findings.push(toFinding(d, at)),
    );
    if (!request) continue;
    if (!consent)
      findings.push(
        find(
          'validate-blocking-without-consent',
          'a <page-consent> element to answer for blocked elements',
          element.tagName,
          at,
        ),
      );
    const purposesAt = locate(element, 'data-block-on-consent-purposes');
    // An id outside the rule is never accepted: the element would stay blocked.
    for (const purpose of request.purposes.filter((purpose) => !isPurposeId(purpose)))
      findings.push(find('validate-purpose-id-invalid', PURPOSE_ID_EXPECTED, purpose, purposesAt));
    const unknown = purposes
      ? request.purposes.filter((purpose) => isPurposeId(purpose) && !purposes.has(purpose))
      : [];
    const expected = `a purpose listed in purposeConsentRequired (${[...(purposes ?? [])].join(', ')})`;
    for (const purpose of unknown) findings.push(find('validate-purpose-unknown', expected, purpose, purposesAt));
  }
  return findings;
}
