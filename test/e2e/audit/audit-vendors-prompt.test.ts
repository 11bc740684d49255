/**
 * The audit's vendors' view and prompt checks (`page-validate --audit`) in real Chromium, one
 * audit per fixture site (vendors-prompt-fixtures.ts): an axe-core violation in the prompt, a
 * modal prompt without a focus trap, a TC string that grants purposes after a reject, a late
 * `__tcfapi`, a GPP string that says after a reject that the reader did not opt out, a tag of a
 * vendor the TC string leaves out, and the clean counterparts whose strings are decoded and pass;
 * the GPC visit on two pages set up for US readers, one showing "Opt-out request honored" and
 * one whose notice stays hidden. Each asserts its finding (or none) and the exit code. The tests run as root, so without the browser's sandbox.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPage, exitCodeOf } from '../../../cli/audit/audit-page.ts';
import { launchAuditBrowser } from '../../../cli/audit/browser.ts';
import { formatAuditHtml } from '../../../cli/audit/format-html.ts';
import { formatAuditText } from '../../../cli/audit/format-text.ts';
import type { AuditReport, JourneyReport } from '../../../cli/audit/report.ts';
import { runAudit } from '../../../cli/audit/run-audit.ts';
import { startServer, type TestServer } from '../harness.ts';
import { validateReport } from './audit-cli.ts';
import {
  axeViolationPage,
  cleanSignalsPage,
  gpcNoticePage,
  gppFollowingPage,
  gppOvergrantPage,
  lateTcfApiPage,
  noFocusTrapPage,
  overgrantPage,
  vendorTagPage,
} from './vendors-prompt-fixtures.ts';

let browser: Browser;
let server: TestServer;
/** The bidder's origin: another site on loopback, which the audit maps to vendor 8 of the fixture vendor list. */
let bidder = '';
/** A whole audit (three journeys) on a loaded two-core machine. */
const AUDIT_TIMEOUT = 240_000;

async function audit(path: string): Promise<{ code: number; report: AuditReport; text: string }> {
  let out = '';
  const io = {
    stdin: (async function* () {})(),
    write: (text: string) => (out += text),
    writeError: () => undefined,
  };
  const code = await runAudit(['--audit', `${server.origin}${path}`, '--format', 'json'], io, browser);
  const report = JSON.parse(out) as AuditReport;
  return { code, report, text: formatAuditText(report) };
}

const journey = (report: AuditReport, name: JourneyReport['name']) =>
  report.journeys.find((entry) => entry.name === name)!;
const codesOf = (entry: JourneyReport) => entry.findings.map((finding) => finding.code);

beforeAll(async () => {
  browser = await launchAuditBrowser({ isNoSandboxAllowed: true });
  server = await startServer();
  server.page('/axe.html', axeViolationPage());
  server.page('/no-trap.html', noFocusTrapPage());
  server.page('/overgrant.html', overgrantPage());
  server.page('/late.html', lateTcfApiPage());
  server.page('/clean.html', cleanSignalsPage());
  server.page('/gpp-overgrant.html', gppOvergrantPage());
  server.page('/gpp-following.html', gppFollowingPage());
  bidder = `http://localhost:${new URL(server.origin).port}`;
  server.route('/bidder.js', { body: 'window.bidderRan = true;', headers: { 'content-type': 'text/javascript' } });
  server.page('/vendor-left-out.html', vendorTagPage(bidder, [1]));
  server.page('/vendor-consented.html', vendorTagPage(bidder, [1, 8]));
  server.page('/gpc-notice.html', gpcNoticePage(true));
  server.page('/gpc-no-notice.html', gpcNoticePage(false));
}, AUDIT_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the prompt, for everyone', () => {
  it(
    'finds the unnamed button of the prompt with axe-core, with its rule, impact and selector',
    async () => {
      const { code, report, text } = await audit('/axe.html');
      const finding = journey(report, 'no-decision').findings.find((entry) => entry.code === 'audit-prompt-axe');
      expect(finding, text).toMatchObject({ subject: 'prompt', phase: 'before' });
      expect(finding?.message).toContain('button-name (critical)');
      expect(finding?.message).toContain('.close');
      const layer = journey(report, 'reject').prompt?.layers[0];
      expect(layer?.violations.map((violation) => violation.rule)).toContain('button-name');
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );

  it(
    'finds that Tab leaves a modal prompt without a focus trap',
    async () => {
      const { code, report, text } = await audit('/no-trap.html');
      const first = journey(report, 'no-decision');
      expect(first.prompt?.keyboard, text).toMatchObject({ isModal: true, unreached: [] });
      const finding = first.findings.find((entry) => entry.code === 'audit-prompt-focus-escape');
      expect(finding?.message, text).toContain('<a> "Read more"');
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );
});

describe("the vendors' view", () => {
  it(
    'finds a TC string that grants purpose consents after a reject and before any decision',
    async () => {
      const { code, report, text } = await audit('/overgrant.html');
      const rejected = journey(report, 'reject');
      expect(rejected.signals?.tcf.value?.purposeConsents, text).toEqual([1, 2, 3, 4]);
      const finding = rejected.findings.find((entry) => entry.code === 'audit-string-overgrant');
      expect(finding?.message, text).toContain('purpose consents 1, 2, 3, 4');
      expect(codesOf(journey(report, 'no-decision'))).toContain('audit-string-overgrant');
      expect(codesOf(journey(report, 'accept'))).not.toContain('audit-string-overgrant');
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );

  it(
    'finds a __tcfapi that first answers 700 ms after the navigation',
    async () => {
      const { code, report, text } = await audit('/late.html');
      const first = journey(report, 'no-decision');
      expect(first.signals?.tcfFirstAnswerMs, text).toBeGreaterThan(500);
      expect(codesOf(first), text).toEqual(['audit-tcfapi-late']);
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );

  it(
    'passes a clean page, its strings decoded in each journey with what Prebid would allow',
    async () => {
      const { code, report, text } = await audit('/clean.html');
      expect(report.findingCount, text).toBe(0);
      expect(code).toBe(0);
      const rejected = journey(report, 'reject').signals;
      const accepted = journey(report, 'accept').signals;
      expect(rejected?.tcf.value).toMatchObject({ cmpId: 10, purposeConsents: [], disclosedVendors: [1, 8, 25] });
      expect(rejected?.tcf.value?.addtlConsent).toBe('2~~dv.');
      expect(rejected?.usp.value).toMatchObject({ uspString: '1YYN', optOutSale: 'Y' });
      expect(rejected?.tcfFirstAnswerMs).toBeLessThanOrEqual(500);
      expect(accepted?.tcf.value?.purposeConsents).toEqual([1, 2, 3, 4]);
      expect(accepted?.prebid.find((row) => row.vendor === 8)).toMatchObject({ syncUser: true, fetchBids: true });
      expect(rejected?.prebid.find((row) => row.vendor === 8)).toMatchObject({ syncUser: false, fetchBids: false });
      const walk = journey(report, 'reject').prompt?.keyboard;
      expect(walk).toMatchObject({ isModal: true, unreached: [], escapedTo: [], isFocusLost: false });
      expect(text).toContain("vendors' view");
      const html = formatAuditHtml(report, null);
      expect(html).toContain('<caption>What Prebid&#39;s tcfControl and gppControl_usnat would allow</caption>');
      expect(html).toContain('<tr><td>8</td><td>yes</td><td>yes</td><td>yes</td>');
    },
    AUDIT_TIMEOUT,
  );
});

describe("the vendors' view: GPP and the vendors' tags", () => {
  it(
    'finds a GPP usnat section that says after a reject that the reader did not opt out',
    async () => {
      const { code, report, text } = await audit('/gpp-overgrant.html');
      const rejected = journey(report, 'reject');
      expect(rejected.signals?.gpp.value?.sections[0], text).toMatchObject({
        name: 'usnat',
        fields: { SaleOptOut: 2 },
      });
      const finding = rejected.findings.find((entry) => entry.code === 'audit-string-overgrant');
      expect(finding?.message, text).toContain(
        'the GPP section usnat says the reader did not opt out (SaleOptOut, SharingOptOut, TargetedAdvertisingOptOut 2)',
      );
      expect(codesOf(journey(report, 'no-decision'))).toEqual([]);
      expect(codesOf(journey(report, 'accept'))).toEqual([]);
      // Without a TC string, one row for every vendor: gppControl_usnat would let them sync users.
      expect(rejected.signals?.prebid).toMatchObject([{ vendor: null, syncUser: true, deniedBy: [] }]);
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );

  it(
    'passes a GPP string that opts the reader out after a reject',
    async () => {
      const { code, report, text } = await audit('/gpp-following.html');
      expect(journey(report, 'reject').signals?.gpp.value?.sections[0]?.fields, text).toMatchObject({ SaleOptOut: 1 });
      expect(report.findingCount, text).toBe(0);
      expect(code).toBe(0);
    },
    AUDIT_TIMEOUT,
  );

  const auditVendors = async (path: string) => {
    const { report } = await auditPage(browser, new URL(`${server.origin}${path}`), {
      pages: 0,
      allow: [],
      allowPrivate: ['localhost'],
      vendorHosts: { localhost: { id: 8, name: 'Bidder Eight' } },
    });
    return { report, code: exitCodeOf(report), text: formatAuditText(report) };
  };

  it(
    "finds a vendor's tag that runs after an accept whose TC string does not consent to that vendor",
    async () => {
      const { code, report, text } = await auditVendors('/vendor-left-out.html');
      const accepted = journey(report, 'accept');
      expect(accepted.signals?.tcf.value?.vendorConsents, text).toEqual([1]);
      expect(codesOf(accepted), text).toEqual(['audit-vendor-not-allowed']);
      const [finding] = accepted.findings;
      expect(finding).toMatchObject({ phase: 'after', what: `${bidder}/bidder.js` });
      expect(finding?.message).toContain('Bidder Eight (vendor 8)');
      expect(finding?.message).toContain('no consent for vendor 8');
      // The runtime ran the blocked script once the accept allowed it: its v0.js is the tag behind the request.
      expect(finding?.initiator.tag.url).toMatch(/\/v0\.js$/);
      expect(codesOf(journey(report, 'no-decision'))).toEqual([]);
      expect(codesOf(journey(report, 'reject'))).toEqual([]);
      expect(text).toContain('audit-vendor-not-allowed');
      expect(code).toBe(1);
    },
    AUDIT_TIMEOUT,
  );

  it(
    "passes the vendor's tag once the TC string consents to the vendor",
    async () => {
      const { code, report, text } = await auditVendors('/vendor-consented.html');
      const accepted = journey(report, 'accept');
      expect(
        accepted.requests.some((request) => request.url === `${bidder}/bidder.js`),
        text,
      ).toBe(true);
      expect(report.findingCount, text).toBe(0);
      expect(code).toBe(0);
    },
    AUDIT_TIMEOUT,
  );
});

describe('Global Privacy Control', () => {
  it(
    'sends GPC in a visit of its own and warns where the page honours it without "Opt-out request honored" in view',
    async () => {
      const shown = await audit('/gpc-notice.html');
      expect(shown.report.gpc, shown.text).toEqual({ honored: true, noticeShown: true });
      expect(shown.text).toContain('GPC notice: passed (GPC honoured, "Opt-out request honored" shown)');
      expect(shown.text).not.toContain('audit-gpc-notice-missing');
      expect(shown.code).toBe(0);
      const hidden = await audit('/gpc-no-notice.html');
      expect(hidden.report.gpc, hidden.text).toEqual({ honored: true, noticeShown: false });
      expect(hidden.text).toContain(
        'audit-gpc-notice-missing: expected a visible "Opt-out request honored" while page-consent-gpc-honored is on, got none',
      );
      expect(formatAuditHtml(hidden.report, null)).toContain('<p class="finding">audit-gpc-notice-missing');
      // A warning, not a finding: the journeys found nothing and the exit code stays 0.
      expect(hidden.report.findingCount, hidden.text).toBe(0);
      expect(hidden.code).toBe(0);
      expect(validateReport(hidden.report), JSON.stringify(validateReport.errors)).toBe(true);
      // The journeys' readers send no GPC and get the prompt; only the GPC visit sends Sec-GPC: 1.
      expect(shown.report.isPromptShown).toBe(true);
      const gpcHeaders = server.requestsTo('/gpc-notice.html').map((request) => request.headers['sec-gpc'] ?? 'none');
      expect(gpcHeaders.sort()).toEqual(['1', 'none', 'none', 'none']);
    },
    AUDIT_TIMEOUT,
  );
});
