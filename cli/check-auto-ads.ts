/**
 * `<page-auto-ads>` (docs/auto-ads.md, "Networks" and "Consent"): a known `type`, the network's required `data-*`, a
 * config URL the network accepts, placed as the first child of `<body>` and not nested.
 */
import { getNetwork, NETWORKS, type NetworkData } from '../src/wire/auto-ads-networks.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { childElements, getAttribute, getParentElement, type HtmlElement, locate } from './html-tree.ts';
import { findByTag, type Page } from './page.ts';

/** The `data-*` attributes in camel case, as `element.dataset` gives them. */
function readDataset(element: HtmlElement): NetworkData {
  const data = element.attrs.filter(({ name }) => name.startsWith('data-'));
  return Object.fromEntries(
    data.map(({ name, value }) => [
      name.slice(5).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  );
}

/** `<link rel=canonical>` resolved against the page, else the page URL. */
function readCanonicalUrl(page: Page): string {
  const link = page.elements.find(
    (element) => element.tagName === 'link' && getAttribute(element, 'rel') === 'canonical',
  );
  try {
    return new URL(link ? (getAttribute(link, 'href') ?? '') : page.baseUrl, page.baseUrl).href;
  } catch {
    return page.baseUrl;
  }
}

function checkNetwork(element: HtmlElement, page: Page, findings: Finding[]): void {
  const type = getAttribute(element, 'type');
  const network = type ? getNetwork(type) : undefined;
  if (!network) {
    const code = type ? 'auto-ads-type-unknown' : 'auto-ads-type-missing';
    findings.push(find(code, `type ${Object.keys(NETWORKS).join('|')}`, type ?? undefined, locate(element, 'type')));
    return;
  }
  const missing = network.required.filter((name) => !getAttribute(element, name));
  for (const name of missing)
    findings.push(
      find('auto-ads-attribute-missing', `a ${name} attribute for type ${type}`, undefined, locate(element)),
    );
  if (missing.length) return;
  const url = network.getConfigUrl({
    data: readDataset(element),
    canonicalUrl: readCanonicalUrl(page),
    pageUrl: page.baseUrl,
  });
  findings.push(...url.diagnostics.map((d) => toFinding(d, locate(element, 'data-config-url'))));
}

function checkPosition(element: HtmlElement, page: Page, findings: Finding[]): void {
  const parent = getParentElement(element);
  if (parent !== page.body) {
    findings.push(find('validate-auto-ads-nested', 'a child of <body>', parent?.tagName, locate(element)));
    return;
  }
  const first = childElements(parent)[0];
  if (first !== element)
    findings.push(find('auto-ads-not-first-child', 'the first child of <body>', first?.tagName, locate(element)));
}

export function checkAutoAds(page: Page): Finding[] {
  const findings: Finding[] = [];
  for (const element of findByTag(page, 'page-auto-ads')) {
    checkNetwork(element, page, findings);
    checkPosition(element, page, findings);
  }
  return findings;
}
