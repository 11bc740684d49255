/**
 * The audit's vendors' view and prompt judgements, pure: the page's answers parsed (junk read as
 * no answer), TC, GPP and US privacy strings decoded with the IAB's libraries, each finding code
 * provoked, and the Prebid table's rules (tcfControl's purposes and restrictions, usnat's opt-outs).
 */
import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import { GVL, PurposeRestriction, Segment, TCModel, TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import { prebidRows, tcfAllows, usnatDenies } from '../../../cli/audit/prebid-rules.ts';
import { parseViolations } from '../../../cli/audit/prompt-access.ts';
import { judgePrompt } from '../../../cli/audit/prompt-findings.ts';
import type { LoggedRequest } from '../../../cli/audit/network-log.ts';
import type { PageRecord } from '../../../cli/audit/recorder-script.ts';
import type { PromptAccess, SignalsView } from '../../../cli/audit/report.ts';
import { judgeSignals } from '../../../cli/audit/signal-findings.ts';
import { decodeUsp, parseAnswers, signalsView } from '../../../cli/audit/signals.ts';

const gvl = () =>
  new GVL(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8')) as ConstructorParameters<typeof GVL>[0]);

function tc(options: {
  purposes?: number[];
  li?: number[];
  vendors?: number[];
  disclosed?: boolean;
  restrict?: boolean;
}) {
  const model = new TCModel(gvl());
  model.cmpId = 10;
  model.cmpVersion = 2;
  model.purposeConsents.set(options.purposes ?? []);
  model.purposeLegitimateInterests.set(options.li ?? []);
  model.vendorConsents.set(options.vendors ?? []);
  model.vendorsDisclosed.set([1, 8]);
  // Vendor 8 may use purpose 2 only on legitimate interest.
  if (options.restrict) model.publisherRestrictions.add(8, new PurposeRestriction(2, 2));
  return TCString.encode(model, {
    segments: options.disclosed === false ? [Segment.CORE] : [Segment.CORE, Segment.VENDORS_DISCLOSED],
  });
}

const answers = (tcString: string | null, usp = '1YNN', gpp: string | null = null) =>
  JSON.stringify({
    tcf:
      tcString === null
        ? { status: 'none' }
        : { status: 'answer', value: { tcString, gdprApplies: true, addtlConsent: '2~1.2~dv.' } },
    gpp: gpp === null ? { status: 'none' } : { status: 'answer', value: { gppString: gpp, applicableSections: [7] } },
    usp: { status: 'answer', value: { uspString: usp } },
  });

const ping = (since: number, key = 'ping'): PageRecord => ({
  kind: 'tcf-answer',
  key,
  time: 10_000 + since,
  frameUrl: 'https://news.example/',
  since,
});
const times = { navigationAt: 10_000, decisionAt: 12_000, readAt: 13_000, loadedAt: null };
const view = (text: string, records: PageRecord[] = [ping(40)]): SignalsView =>
  signalsView(parseAnswers(text), records);
const codes = (findings: { code: string }[]) => findings.map(({ code }) => code);

describe('reading the page answers', () => {
  it('reads junk as no answer and never trusts a value by its truthiness', () => {
    expect(parseAnswers('not json').tcf.status).toBe('threw');
    expect(parseAnswers(42).usp.status).toBe('threw');
    expect(view('not json').tcf).toMatchObject({ status: 'unreadable', value: null });
    const odd = view(JSON.stringify({ tcf: { status: 'answer', value: 'yes' }, gpp: { status: 'x' }, usp: {} }));
    expect(odd.tcf).toMatchObject({ status: 'unreadable', value: null });
    expect(odd.gpp.status).toBe('unreadable');
    expect(view(JSON.stringify({ tcf: { status: 'answer', value: { tcString: 'AAAA!!' } } })).tcf.status).toBe(
      'unreadable',
    );
  });

  it('decodes a TC string with the IAB library: purposes, vendors, disclosed vendors, restrictions, AC as is', () => {
    const read = view(answers(tc({ purposes: [1, 2], vendors: [8], restrict: true }))).tcf.value;
    expect(read).toMatchObject({
      cmpId: 10,
      cmpVersion: 2,
      purposeConsents: [1, 2],
      vendorConsents: [8],
      disclosedVendors: [1, 8],
      publisherRestrictions: [{ purpose: 2, type: 2, vendors: [8] }],
      addtlConsent: '2~1.2~dv.',
    });
    expect(view(answers(tc({ disclosed: false }))).tcf.value?.disclosedVendors).toBeNull();
  });

  it('decodes a GPP usnat section and a US privacy string', () => {
    const model = new GppModel();
    model.setFieldValue('usnat', 'SaleOptOut', 2);
    model.setFieldValue('usnat', 'SaleOptOutNotice', 1);
    model.setFieldValue('usnat', 'SharingNotice', 1);
    const gpp = view(answers(null, '1YYN', model.encode())).gpp.value;
    expect(gpp?.sections[0]).toMatchObject({ id: 7, name: 'usnat', fields: { SaleOptOut: 2 } });
    expect(decodeUsp('1YYN')).toMatchObject({ notice: 'Y', optOutSale: 'Y', lspa: 'N' });
    expect(decodeUsp('1YYNX')).toBeNull();
  });
});

describe('judging the strings against the decision', () => {
  const granted = answers(tc({ purposes: [1], vendors: [8] }), '1YYN');

  it('finds purpose consents after a reject and before any decision, not after an accept', () => {
    expect(codes(judgeSignals(view(granted), 'reject', times, []))).toEqual(['audit-string-overgrant']);
    const [finding] = judgeSignals(view(granted), 'reject', times, []);
    expect(finding?.message).toMatch(
      /^expected no more than a reject grants, got .*purpose consents 1; vendor consents 8/,
    );
    expect(codes(judgeSignals(view(granted), 'no-decision', times, []))).toEqual(['audit-string-overgrant']);
    expect(judgeSignals(view(granted), 'accept', times, [])).toEqual([]);
    expect(judgeSignals(view(answers(tc({}), '1YYN')), 'reject', times, [])).toEqual([]);
  });

  it('finds a US opt-out missing after a reject', () => {
    const findings = judgeSignals(view(answers(null, '1YNN')), 'reject', times, []);
    expect(findings[0]?.message).toContain('did not opt out of the sale');
  });

  it('finds a TC string without DisclosedVendors', () => {
    expect(codes(judgeSignals(view(answers(tc({ disclosed: false }))), 'accept', times, []))).toEqual([
      'audit-tc-no-disclosed-vendors',
    ]);
  });

  it('finds a late __tcfapi, one that never answered while the page loaded, and none for an early one', () => {
    const text = answers(tc({}));
    expect(codes(judgeSignals(view(text, [ping(720)]), 'accept', times, []))).toEqual(['audit-tcfapi-late']);
    expect(codes(judgeSignals(view(text, []), 'accept', times, []))).toEqual(['audit-tcfapi-late']);
    expect(judgeSignals(view(text, [ping(500)]), 'accept', times, [])).toEqual([]);
    expect(judgeSignals(view(answers(null), []), 'accept', times, [])).toEqual([]);
  });

  it('finds a tag that sent gdpr_consent before tcloaded', () => {
    const request = (time: number) =>
      ({ url: `https://ads.example/bid?gdpr_consent=&t=${time}`, time }) as unknown as LoggedRequest;
    const records = [ping(40), ping(900, 'event:tcloaded')];
    const findings = judgeSignals(view(answers(tc({})), records), 'accept', { ...times, loadedAt: 10_900 }, [
      request(10_500),
      request(11_000),
    ]);
    expect(codes(findings)).toEqual(['audit-tcloaded-late']);
    expect(findings[0]?.message).toContain('400 ms earlier');
  });
});

describe("Prebid's rules for the vendors the strings name", () => {
  it('needs purpose 1 consent and the vendor for syncUser, purpose 2 consent or LI for fetchBids', () => {
    const read = view(answers(tc({ purposes: [2], vendors: [1, 8] }))).tcf.value!;
    const rows = prebidRows(read, null);
    expect(rows.map(({ vendor }) => vendor)).toEqual([1, 8]);
    expect(rows[0]).toMatchObject({ syncUser: false, fetchBids: true, transmitEids: true });
    expect(rows[0]?.deniedBy).toEqual(['tcfControl purpose 1']);
  });

  it("applies the publisher's restrictions: purpose 2 on legitimate interest only", () => {
    const read = view(answers(tc({ purposes: [2], vendors: [1, 8], restrict: true }))).tcf.value!;
    expect(tcfAllows(read, 2, 8)).toBe(false);
    expect(tcfAllows(read, 2, 1)).toBe(true);
  });

  it('denies syncUser and transmitEids, not fetchBids, on a usnat opt-out', () => {
    expect(usnatDenies({ SaleOptOut: 1, SaleOptOutNotice: 1, SharingNotice: 1 })).toBe(true);
    expect(usnatDenies({ SaleOptOut: 2, SaleOptOutNotice: 1, SharingNotice: 1, MspaCoveredTransaction: 1 })).toBe(
      false,
    );
    const gpp = {
      gppString: 'x',
      applicableSections: [7],
      sections: [{ id: 7, name: 'usnat', fields: { SaleOptOut: 1 } }],
    };
    expect(prebidRows(null, gpp)).toEqual([
      { vendor: null, syncUser: false, fetchBids: true, transmitEids: false, deniedBy: ['gppControl_usnat'] },
    ]);
  });
});

describe('judging the prompt checks', () => {
  const access = (changes: Partial<NonNullable<PromptAccess['keyboard']>> = {}): PromptAccess => ({
    layers: [
      {
        layer: 'second',
        frame: 'https://cmp.example/prompt.html',
        openedBy: 'Customize',
        violations: [
          { rule: 'color-contrast', impact: 'serious', help: 'contrast', helpUrl: 'u', selectors: ['#p > .small'] },
        ],
      },
    ],
    keyboard: {
      isModal: true,
      controls: ['<button> "Reject"', '<div> "Accept"'],
      unreached: ['<div> "Accept"'],
      escapedTo: ['<a> "Home"'],
      focusAfterClose: '<button> "Reject"',
      isFocusLost: true,
      ...changes,
    },
    error: null,
  });

  it('makes a finding of each violation, unreached control, escape and lost focus', () => {
    const findings = judgePrompt(access());
    expect(codes(findings)).toEqual([
      'audit-prompt-axe',
      'audit-prompt-unreachable',
      'audit-prompt-focus-escape',
      'audit-prompt-focus-lost',
    ]);
    expect(findings[0]).toMatchObject({
      subject: 'prompt',
      what: 'color-contrast #p > .small',
      initiator: { tag: { kind: 'frame', url: 'https://cmp.example/prompt.html' } },
    });
    expect(findings[0]?.message).toContain('second layer (opened by "Customize")');
    expect(findings[3]?.phase).toBe('after');
  });

  it('does not judge a non-modal prompt for a focus trap', () => {
    expect(codes(judgePrompt(access({ isModal: false, unreached: [], isFocusLost: false })))).toEqual([
      'audit-prompt-axe',
    ]);
  });

  it("reads axe-core's answer field by field", () => {
    const json = JSON.stringify([
      { id: 'button-name', impact: 'critical', help: 'h', helpUrl: 'u', targets: [['.close'], ['iframe', '#b']] },
      { id: 'Bad Id!', impact: 'critical' },
      { id: 'label', impact: 'weird', targets: 'x' },
    ]);
    expect(parseViolations(json)).toEqual([
      { rule: 'button-name', impact: 'critical', help: 'h', helpUrl: 'u', selectors: ['.close', 'iframe >>> #b'] },
      { rule: 'label', impact: null, help: '', helpUrl: '', selectors: [] },
    ]);
    expect(parseViolations('{')).toBeNull();
  });
});
