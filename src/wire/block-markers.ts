/**
 * The blocking markers of an element or `text/plain` script (docs/consent.md, "Blocking other elements"): `data-block-on-consent`,
 * `data-block-on-consent-purposes` and the `page-consent-blocking` meta tag. Shared by the runtime's
 * gate, the consent fast path and the validator.
 */
import { type Diagnostic, diagnostic } from './diagnostic.ts';

/** Blocking policies an element can ask for (docs/consent.md, "Blocking other elements"). */
export type BlockPolicy = 'default' | '_till_responded' | '_till_accepted' | '_auto_reject';

/**
 * What an element is blocked on, read from its markers (the runtime returns no request at all
 * when the element is not blocked). `policy` is null when only `data-block-on-consent-purposes`
 * is given: then only the listed purposes must be accepted. With both, both must allow.
 */
export type BlockRequest = { readonly policy: BlockPolicy | null; readonly purposes: readonly string[] };

const POLICIES: readonly BlockPolicy[] = ['_till_responded', '_till_accepted', '_auto_reject'];

/** Reads the blocking markers of an element or `text/plain` script. */
export function readBlockRequest(
  element: Pick<Element, 'getAttribute' | 'tagName'>,
  metaBlockedTags: ReadonlySet<string>,
  onDiagnostic: (d: Diagnostic) => void,
): BlockRequest | null {
  const value = element.getAttribute('data-block-on-consent');
  const purposeList = element.getAttribute('data-block-on-consent-purposes');
  const isMetaBlocked = metaBlockedTags.has(element.tagName.toLowerCase());
  if (value === null && purposeList === null && !isMetaBlocked) return null;
  let policy: BlockPolicy | null = value === null && !isMetaBlocked ? null : 'default';
  if (value && !POLICIES.includes(value as BlockPolicy)) {
    onDiagnostic(diagnostic('invalid-block-policy', `no value or ${POLICIES.join('|')}`, value));
  } else if (value) policy = value as BlockPolicy;
  const purposes = (purposeList ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return { policy, purposes };
}

/** Tag names listed by `<meta name="page-consent-blocking" content="page-img,page-ad">`. */
export function readMetaBlockedTags(document: Document): Set<string> {
  const content = document.querySelector('meta[name="page-consent-blocking"]')?.getAttribute('content') ?? '';
  return new Set(
    content
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}
