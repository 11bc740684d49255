/**
 * Validates one page's markup and JSON configs against the product's rules, with the parsers
 * the components use. Pure: HTML text in, findings out.
 */
import { checkAutoAds } from './check-auto-ads.ts';
import { checkBlocking } from './check-blocking.ts';
import { checkConsent } from './check-consent.ts';
import { checkConsentUi } from './check-consent-ui.ts';
import { checkElements } from './check-elements.ts';
import { checkGeo } from './check-geo.ts';
import { checkScripts } from './check-scripts.ts';
import { checkSignals } from './check-signals.ts';
import { checkUsOptOut } from './check-us-opt-out.ts';
import { checkTcfFirstLayer } from './check-tcf-first-layer.ts';
import { type Finding, sortFindings } from './finding.ts';
import { FILE_BASE_URL, readPage } from './page.ts';

/** `baseUrl`: the page's URL; files and stdin use `https://example.invalid/`. */
export function validatePage(html: string, baseUrl: string = FILE_BASE_URL): Finding[] {
  const page = readPage(html, baseUrl);
  const { findings, consent } = checkConsent(page);
  return sortFindings([
    ...checkScripts(page),
    ...findings,
    ...checkConsentUi(page, consent),
    ...checkTcfFirstLayer(page, consent),
    ...checkBlocking(page, consent),
    ...checkSignals(page, consent),
    ...checkUsOptOut(page, consent),
    ...checkAutoAds(page),
    ...checkGeo(page, consent),
    ...checkElements(page),
  ]);
}
