/**
 * The built-in elements (docs/runtime.md): layout and size attributes the runtime's `parseLayout`
 * accepts, and every URL they load (`src`, `data-src`) allowed by the URL rule.
 */
import { parseLayout } from '../src/wire/layout.ts';
import { LOADABLE_URL, parseLoadableUrl } from '../src/wire/url.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, locate } from './html-tree.ts';
import type { Page } from './page.ts';

const BUILT_INS = ['page-img', 'page-pixel', 'page-iframe', 'page-ad'];
const URL_ATTRIBUTES = ['src', 'data-src'];

export function checkElements(page: Page): Finding[] {
  const findings: Finding[] = [];
  for (const element of page.elements.filter(({ tagName }) => BUILT_INS.includes(tagName))) {
    const read = (name: string) => getAttribute(element, name);
    const layout = parseLayout({ layout: read('layout'), width: read('width'), height: read('height') });
    findings.push(...layout.diagnostics.map((d) => toFinding(d, locate(element))));
    for (const name of URL_ATTRIBUTES) {
      const href = read(name);
      if (href !== null && !parseLoadableUrl(href, page.baseUrl))
        findings.push(find('url-refused', LOADABLE_URL, href, locate(element, name)));
    }
  }
  return findings;
}
