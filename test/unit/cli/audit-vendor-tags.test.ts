/**
 * The tag-to-vendor finding, pure: a request's host mapped to a TCF vendor by the table, and the
 * TC string's purpose 1 and vendor consents (restrictions applied) deciding whether that vendor
 * may fire.
 */
import { readFileSync } from 'node:fs';
import { GVL, PurposeRestriction, Segment, TCModel, TCString } from '@iabtechlabtcf/core';
import { describe, expect, it } from 'vitest';
import type { RequestEvent, TcView } from '../../../cli/audit/report.ts';
import { decodeTc } from '../../../cli/audit/signals.ts';
import { judgeVendorTags } from '../../../cli/audit/vendor-findings.ts';
import { VENDOR_HOSTS, vendorOfHost } from '../../../cli/audit/vendor-hosts.ts';

const gvl = () =>
  new GVL(JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8')) as ConstructorParameters<typeof GVL>[0]);

function tc(options: { purposes: number[]; vendors: number[]; restrictPurpose1?: number }): TcView {
  const model = new TCModel(gvl());
  model.cmpId = 10;
  model.purposeConsents.set(options.purposes);
  model.vendorConsents.set(options.vendors);
  if (options.restrictPurpose1 !== undefined)
    model.publisherRestrictions.add(8, new PurposeRestriction(1, options.restrictPurpose1));
  const text = TCString.encode(model, { segments: [Segment.CORE] });
  return decodeTc(text, { gdprApplies: true });
}

const TABLE = { 'bidder.example': { id: 8, name: 'Bidder Eight' } };

const request = (url: string, phase: 'before' | 'after' = 'after'): RequestEvent => ({
  t: phase === 'before' ? -500 : 800,
  phase,
  page: 'https://news.example/',
  verdict: 'ok',
  initiator: { chain: ['https://news.example/'], tag: { kind: 'script', url } },
  url,
  method: 'GET',
  type: 'Script',
  party: 'third',
  isBeacon: false,
});

describe('vendor-hosts', () => {
  it('maps a host and its subdomains to the longest table key that covers it', () => {
    expect(vendorOfHost('ib.adnxs.com')).toMatchObject({ id: 32, key: 'adnxs.com' });
    expect(vendorOfHost('securepubads.g.doubleclick.net')).toMatchObject({ id: 755 });
    expect(vendorOfHost('notadnxs.com')).toBeNull();
    expect(vendorOfHost('')).toBeNull();
    expect(
      vendorOfHost('a.b.example', { 'b.example': { id: 1, name: 'B' }, 'a.b.example': { id: 2, name: 'A' } }),
    ).toMatchObject({ id: 2 });
  });

  it('names each vendor id with a positive integer', () => {
    expect(Object.values(VENDOR_HOSTS).every(({ id }) => Number.isInteger(id) && id > 0)).toBe(true);
  });
});

describe('vendor-findings', () => {
  it('finds a vendor tag after an accept whose string gives purpose 1 but not the vendor, once per vendor', () => {
    const string = tc({ purposes: [1, 2, 3, 4], vendors: [1] });
    const findings = judgeVendorTags(
      [request('https://cdn.bidder.example/tag.js'), request('https://x.bidder.example/bid?x=1')],
      string,
      'accept',
      TABLE,
    );
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ code: 'audit-vendor-not-allowed', subject: 'request', phase: 'after', t: 800 });
    expect(findings[0]?.message).toMatch(/^expected .+, got GET https:\/\/cdn\.bidder\.example\/tag\.js and 1 more/);
    expect(findings[0]?.message).toContain('no consent for vendor 8');
    expect(findings[0]?.message).not.toContain('purpose 1,');
  });

  it('passes a vendor whose purpose 1 and vendor consents the string gives', () => {
    const string = tc({ purposes: [1], vendors: [1, 8] });
    expect(judgeVendorTags([request('https://bidder.example/tag.js')], string, 'accept', TABLE)).toEqual([]);
  });

  it('applies a publisher restriction that forbids purpose 1 for the vendor', () => {
    const string = tc({ purposes: [1], vendors: [8], restrictPurpose1: 0 });
    const [finding] = judgeVendorTags([request('https://bidder.example/tag.js')], string, 'accept', TABLE);
    expect(finding?.message).toContain('a publisher restriction of type 0 on purpose 1');
  });

  it('judges only the requests after a decision in the reject and accept journeys, every request before one', () => {
    const string = tc({ purposes: [], vendors: [] });
    const early = [request('https://bidder.example/tag.js', 'before')];
    expect(judgeVendorTags(early, string, 'reject', TABLE)).toEqual([]);
    expect(judgeVendorTags(early, string, 'no-decision', TABLE)[0]?.message).toContain(
      'no consent for purpose 1, no consent for vendor 8',
    );
  });

  it('judges nothing without a TC string or where GDPR does not apply, nor hosts outside the table', () => {
    const string = tc({ purposes: [], vendors: [] });
    expect(judgeVendorTags([request('https://bidder.example/t.js')], null, 'accept', TABLE)).toEqual([]);
    expect(
      judgeVendorTags([request('https://bidder.example/t.js')], { ...string, gdprApplies: false }, 'accept', TABLE),
    ).toEqual([]);
    expect(judgeVendorTags([request('https://other.example/t.js')], string, 'accept', TABLE)).toEqual([]);
  });
});
