/**
 * The leak matrix's generated pages: each consent path x each script load order, every element
 * kind under every policy on each page (distinct URLs per element), the meta tag and the auto-ads
 * policy spread over the pages as a covering design (each value with each path and each order).
 */
import { POST_PROMPT, PROMPT } from './consent-fixtures.ts';
import type { BlockRequest, GateState, Policy } from './leak-matrix-rules.ts';

export const KINDS = ['img', 'pixel', 'iframe', 'ad', 'script', 'define'] as const;
export type Kind = (typeof KINDS)[number] | 'auto-ads';

export const POLICY_KEYS = [
  'default',
  '_till_responded',
  '_till_accepted',
  '_auto_reject',
  'purposes',
  'meta',
] as const;
export type PolicyKey = (typeof POLICY_KEYS)[number];

/** The tags the meta tag lists on a meta page (every blockable kind but scripts). */
const META_TAGS = 'page-img,page-pixel,page-iframe,page-ad,vendor-leak,page-auto-ads';

/**
 * The order the two scripts run in. The server holds each script until the test releases it:
 * the later one only once the earlier one has run (and, for a slow extension, once the page has
 * settled without it), so the order never depends on timing.
 */
export type Order = { readonly name: string; readonly isExtensionFirst: boolean; readonly isExtensionLate: boolean };

export const ORDERS: readonly Order[] = [
  { name: 'extension before v0.js', isExtensionFirst: true, isExtensionLate: false },
  { name: 'extension after v0.js', isExtensionFirst: false, isExtensionLate: false },
  { name: 'slow extension', isExtensionFirst: false, isExtensionLate: true },
];

export type StoredDecision = {
  readonly state: 'accepted' | 'rejected';
  readonly purposeConsents: Record<string, boolean>;
};

export type ConsentPath = {
  readonly name: string;
  /** `client`: consentRequired true; `remote`: checkConsentHref answering `answer`. */
  readonly setup: 'client' | 'remote';
  readonly answer?: { readonly status?: number; readonly body: object | string };
  readonly timeout?: { readonly seconds: number; readonly fallbackAction: 'reject' | 'dismiss' };
  /** Buttons clicked, in order, once the page settled undecided. */
  readonly clicks?: readonly string[];
  readonly cache?: StoredDecision;
  readonly final: GateState;
  /** A second visit in the same browser profile, with the server answering `answer`. */
  readonly returnVisit?: ConsentPath;
};

const TC_METADATA = { consentStringType: 2, gdprApplies: true };
/** Replaced by a real TC string (encodeTcString) when the page is written. */
export const TC_STRING = 'TC_STRING';

export const PATHS: readonly ConsentPath[] = [
  { name: 'no decision', setup: 'client', final: 'unknown' },
  { name: 'accept', setup: 'client', clicks: ['ads', 'accept'], final: 'accepted' },
  { name: 'reject', setup: 'client', clicks: ['reject'], final: 'rejected' },
  { name: 'dismiss', setup: 'client', clicks: ['dismiss'], final: 'dismissed' },
  {
    name: 'timeout fallback reject',
    setup: 'client',
    timeout: { seconds: 0.5, fallbackAction: 'reject' },
    final: 'unknown',
  },
  {
    name: 'timeout fallback dismiss, then accept',
    setup: 'client',
    timeout: { seconds: 0.5, fallbackAction: 'dismiss' },
    clicks: ['ads', 'accept'],
    final: 'accepted',
  },
  {
    name: 'remote accepted',
    setup: 'remote',
    answer: {
      body: {
        consentRequired: true,
        consentStateValue: 'accepted',
        consentString: TC_STRING,
        consentMetadata: TC_METADATA,
        purposeConsents: { ads: true },
      },
    },
    final: 'accepted',
  },
  {
    name: 'remote rejected',
    setup: 'remote',
    answer: { body: { consentRequired: true, consentStateValue: 'rejected' } },
    final: 'rejected',
  },
  {
    name: 'remote unknown',
    setup: 'remote',
    answer: { body: { consentRequired: true, consentStateValue: 'unknown' } },
    final: 'unknown',
  },
  { name: 'remote failure', setup: 'remote', answer: { status: 500, body: 'down' }, final: 'unknown' },
  {
    name: 'remote expireCache',
    setup: 'remote',
    answer: {
      body: { consentRequired: true, consentStateValue: 'accepted', purposeConsents: { ads: true }, expireCache: true },
    },
    final: 'accepted',
    returnVisit: {
      name: 'return visit after expireCache',
      setup: 'remote',
      answer: { body: { consentRequired: true } },
      final: 'unknown',
    },
  },
  {
    name: 'cache accepted',
    setup: 'client',
    cache: { state: 'accepted', purposeConsents: { ads: true } },
    final: 'accepted',
  },
  { name: 'cache rejected', setup: 'client', cache: { state: 'rejected', purposeConsents: {} }, final: 'rejected' },
];

export type Cell = {
  readonly id: string;
  readonly kind: Kind;
  readonly label: string;
  readonly request: BlockRequest;
  readonly markup: string;
};

export type PageSpec = {
  readonly n: number;
  readonly path: ConsentPath;
  readonly order: Order;
  readonly hasMeta: boolean;
  readonly autoAdsPolicy: PolicyKey;
  /** A return visit: the page number whose browser profile (storage) it reuses. */
  readonly after?: number;
};

/**
 * Every path x every order (a return visit right after its first visit); the meta tag on
 * alternate pages, so that each path and each order has pages with and without it; the
 * auto-ads element's policy cycling through the policies.
 */
export function generatePages(): PageSpec[] {
  const pages: PageSpec[] = [];
  for (const [p, path] of PATHS.entries()) {
    for (const [o, order] of ORDERS.entries()) {
      const hasMeta = (p + o) % 2 === 0;
      const choices = hasMeta ? POLICY_KEYS : POLICY_KEYS.filter((key) => key !== 'meta');
      const first: PageSpec = {
        n: pages.length + 1,
        path,
        order,
        hasMeta,
        autoAdsPolicy: choices[(p + 2 * o) % choices.length]!,
      };
      pages.push(first);
      if (path.returnVisit) pages.push({ ...first, n: pages.length + 1, path: path.returnVisit, after: first.n });
    }
  }
  return pages;
}

/** What was generated: the number of cells per value of each dimension. */
export function describeCoverage(pages: readonly PageSpec[]): string {
  const tally = (name: string, read: (page: PageSpec, cell: Cell) => string) => {
    const counts = new Map<string, number>();
    for (const page of pages)
      for (const cell of cellsOf(page)) counts.set(read(page, cell), (counts.get(read(page, cell)) ?? 0) + 1);
    return `  ${name}: ${[...counts].map(([value, count]) => `${value} ${count}`).join(', ')}`;
  };
  const returns = pages.filter((page) => page.after).length;
  return [
    `leak matrix: ${pages.length} page views = ${PATHS.length} consent paths x ${ORDERS.length} load orders + ${returns} return visits, every kind x every policy on each page, meta tag on ${pages.filter((page) => page.hasMeta).length}, the auto-ads policy cycling`,
    tally('kinds', (_, cell) => cell.kind),
    tally('policies', (_, cell) => cell.label),
    tally('consent paths', (page) => page.path.name),
    tally('load orders', (page) => page.order.name),
  ].join('\n');
}

const MARKERS: Readonly<Record<PolicyKey, string>> = {
  default: 'data-block-on-consent',
  _till_responded: 'data-block-on-consent="_till_responded"',
  _till_accepted: 'data-block-on-consent="_till_accepted"',
  _auto_reject: 'data-block-on-consent="_auto_reject"',
  purposes: 'data-block-on-consent-purposes="ads"',
  meta: '',
};

/** The block request of `key` on a page with or without the meta tag (scripts are not listed in it). */
function requestOf(key: PolicyKey, isMetaListed: boolean): BlockRequest {
  const purposes = key === 'purposes' ? ['ads'] : [];
  if (key !== 'purposes' && key !== 'meta') return { policy: key as Policy, purposes };
  return { policy: isMetaListed ? 'default' : null, purposes };
}

const SIZE = 'width="10" height="10" layout="fixed"';

function markupOf(kind: Kind, id: string, query: string, markers: string): string {
  switch (kind) {
    case 'img':
      return `<page-img id="${id}" ${markers} src="/leak/img.svg?${query}" ${SIZE}></page-img>`;
    case 'pixel':
      return `<page-pixel id="${id}" ${markers} src="/leak/pixel?${query}"></page-pixel>`;
    case 'iframe':
      return `<page-iframe id="${id}" ${markers} src="/leak/frame.html?${query}" ${SIZE}></page-iframe>`;
    case 'ad':
      return `<page-ad id="${id}" ${markers} type="custom" width="10" height="10" data-src="/leak/ad.html?${query}"></page-ad>`;
    case 'script':
      return `<script type="text/plain" id="${id}" ${markers} src="/leak/script.js?${query}"></script>`;
    case 'define':
      return `<vendor-leak id="${id}" ${markers} data-query="${query}" ${SIZE}></vendor-leak>`;
    case 'auto-ads':
      return `<page-auto-ads id="${id}" ${markers} type="custom" data-config-url="/leak/config.json?${query}"></page-auto-ads>`;
  }
}

function cellOf(page: PageSpec, kind: Kind, key: PolicyKey): Cell {
  const id = `${key}-${kind}`;
  const isMetaListed = page.hasMeta && kind !== 'script';
  const request = requestOf(key, isMetaListed);
  const label = key === 'purposes' && isMetaListed ? 'purposes+meta' : key;
  return { id, kind, label, request, markup: markupOf(kind, id, `${page.n}-${id}`, MARKERS[key]) };
}

/** The cells of a page: every kind under every policy (meta only on meta pages, not for scripts), and the auto-ads element. */
export function cellsOf(page: PageSpec): Cell[] {
  const keys = POLICY_KEYS.filter((key) => key !== 'meta' || page.hasMeta);
  const cells = keys.flatMap((key) =>
    KINDS.filter((kind) => !(key === 'meta' && kind === 'script')).map((kind) => cellOf(page, kind, key)),
  );
  return [cellOf(page, 'auto-ads', page.autoAdsPolicy), ...cells];
}

/** The signal fields every page configures: TCF, GPP and Consent Mode. */
const SIGNALS = {
  exposesTcfApi: true,
  exposesGppApi: true,
  cmpId: 10,
  cmpVersion: 1,
  consentModeMapping: { ad_storage: 'consent', analytics_storage: 'purpose:ads' },
};

export function configOf(page: PageSpec): object {
  const { path } = page;
  const base = { consentInstanceId: 'leak', promptUI: 'prompt', postPromptUI: 'post', ...SIGNALS };
  const timeout = path.timeout && { policy: { default: { timeout: path.timeout } } };
  return path.setup === 'remote'
    ? { ...base, checkConsentHref: `/leak/check?${page.n}` }
    : { ...base, consentRequired: true, ...timeout };
}

/**
 * Runs before any component script: records consent changes (DOM event and vendor API), clicks,
 * policy states, Consent Mode calls, script runs and third-party builds, each with `Date.now()`;
 * defines the third-party element `<vendor-leak>`.
 */
const RECORDER = `<script>
  const leak = (window.leak = { events: [], snapshots: [], clicks: [], policies: [], gtag: [], runs: [] });
  window.dataLayer = [];
  window.gtag = function () { leak.gtag.push({ time: Date.now(), args: Array.from(arguments) }); dataLayer.push(arguments); };
  document.addEventListener('consent-change', (e) => leak.events.push({ time: Date.now(), state: e.detail.state, purposes: e.detail.purposeConsents, consentString: e.detail.consentString }));
  addEventListener('click', (e) => leak.clicks.push({ time: Date.now(), id: e.target.id }), true);
  (self.PAGE = self.PAGE || []).push((page) => {
    page.consent.onChange((s) => leak.snapshots.push({ time: Date.now(), state: s.state, required: s.isConsentRequired, purposes: s.purposeConsents }));
    for (const id of ['default', '_till_responded', '_till_accepted', '_auto_reject']) {
      page.consent.getPolicyState(id).then((state) => leak.policies.push({ time: Date.now(), id, state }));
    }
    page.define('vendor-leak', class extends page.PageElement {
      buildCallback() {
        leak.runs.push({ time: Date.now(), id: this.element.id });
        fetch('/leak/define?' + this.element.dataset.query);
      }
    });
  });
</script>`;

/** The fixtures' prompt with a purpose button, and both UIs \`hidden\` until the component shows them. */
const CONSENT_UI = (PROMPT + POST_PROMPT)
  .replace(
    '<button id="accept"',
    '<button id="ads" on="tap:consent.setPurpose(ads=true)">Ads</button>\n  <button id="accept"',
  )
  .replace('<div id="prompt">', '<div id="prompt" hidden>')
  .replace('<div id="post">', '<div id="post" hidden>');

/**
 * The page, its scripts loaded from `/o/<n>/` in the order's sequence, and a control: a plain
 * `<img>` that nothing blocks, which the checks must report as a leak of a `default` cell.
 */
export function pageHtml(page: PageSpec, cells: readonly Cell[]): string {
  const v0 = `<script async src="/o/${page.n}/v0.js"></script>`;
  const extension = `<script async custom-element="page-consent" src="/o/${page.n}/v0/page-consent-0.1.js"></script>`;
  const scripts = page.order.isExtensionFirst ? extension + v0 : v0 + extension;
  const meta = page.hasMeta ? `<meta name="page-consent-blocking" content="${META_TAGS}">` : '';
  const [autoAds, ...rest] = cells;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>leak ${page.n}</title>
${meta}${RECORDER}${scripts}
<script async custom-element="page-auto-ads" src="/v0/page-auto-ads-0.1.js"></script>
<style>.cells { display: flex; flex-wrap: wrap; gap: 2px }</style>
</head><body>${autoAds!.markup}
<page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(configOf(page))}</script>${CONSENT_UI}</page-consent>
<div class="cells">${rest.map((cell) => cell.markup).join('\n')}
<img id="control" src="/leak/img.svg?${page.n}-control" width="10" height="10" alt=""></div>
</body></html>`;
}
